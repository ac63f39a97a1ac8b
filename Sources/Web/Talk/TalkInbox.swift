import Formats
import Foundation
import HTTP
import Storage

extension App {
    /// `GET /talk`: every room and conversation, newest message first (`?requests=1`: the
    /// conversations strangers started, waiting to be accepted). Older ones page by `before`.
    func talkInbox(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let language = context.language, now = Date()
        let showingRequests = context.form["requests"] == "1"
        let before = context.form["before"].flatMap { Checked.integer($0, in: 0...10_000_000_000_000) }.map { Date(timeIntervalSince1970: Double($0) / 1000) }
        let pageSize = 30
        let entries = try database.talk.inbox(userID: user.storedID, requests: showingRequests, before: before, limit: pageSize + 1)
        let requests = showingRequests ? 0 : try database.talk.requestCount(userID: user.storedID)
        let shown = entries.prefix(pageSize)
        let view = InboxView(
            entries: shown.map { inboxEntry($0, now: now, language) },
            showingRequests: showingRequests,
            requestCount: requests > 0 ? requests : nil,
            olderURL: entries.count > pageSize ? shown.last.map { entry in
                Paths.talk + "?" + (showingRequests ? "requests=1&" : "") + "before=\(Self.milliseconds(entry.room.lastMessageAt))"
            } : nil)
        return page(view, context, title: localizer.text(.talk.title, language), section: .talk)
    }

    private func inboxEntry(_ entry: InboxEntry, now: Date, _ language: Language) -> InboxEntryView {
        let preview: String? = entry.lastAuthor.map { author in
            let text = entry.lastBody.map { String(Message.preview(of: $0, place: entry.lastPlace).prefix(80)) } ?? localizer.text(.talk.deleted, language)
            return author + ": " + text
        }
        return InboxEntryView(
            url: Paths.talkRoom(entry.room.id ?? 0),
            title: roomTitle(entry.room, others: entry.others, crewName: entry.crewName, meetupTitle: entry.meetupTitle, language),
            crew: entry.crewName, preview: preview, when: localizer.moment(entry.room.lastMessageAt, language, now: now),
            unread: entry.membership.unread > 0 ? Self.badge(entry.membership.unread) : nil,
            muted: entry.membership.isMuted(at: now))
    }

    /// A room's name as a member sees it: the crew's room by the crew's name, a topic by its
    /// own, a conversation by the others in it.
    func roomTitle(_ room: Room, others: [String], crewName: String? = nil, meetupTitle: String? = nil, _ language: Language) -> String {
        switch room.kind {
        case .crew: crewName ?? localizer.text(.talk.crew_room, language)
        case .topic: room.name ?? ""
        case .meetup: meetupTitle ?? ""
        case .direct: others.first ?? localizer.text(.talk.deleted_member, language)
        case .group: room.name ?? (others.isEmpty ? localizer.text(.talk.group, language) : others.joined(separator: ", "))
        }
    }

    /// A date as whole milliseconds since 1970, for a cursor in a link.
    static func milliseconds(_ date: Date) -> Int {
        Checked.rounded((date.timeIntervalSince1970 * 1000).rounded(.down), in: 0...10_000_000_000_000) ?? 0
    }
}
