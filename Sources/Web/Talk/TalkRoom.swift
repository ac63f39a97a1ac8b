import Formats
import Foundation
import HTTP
import Storage

extension App {
    /// `GET /talk/:id`: a room, for its members only (anyone else: 404, never a hint that it
    /// exists). It opens at the newest messages, or at the first unread one when more are
    /// waiting than a page holds; `before=ID` pages back, `after=ID` forward, `reply=ID`
    /// quotes a message in the form.
    func talkRoom(_ context: RequestContext) throws -> HTTPResponse {
        try renderRoom(context, body: "", error: nil, status: .ok)
    }

    /// The room page, with what was typed and what was wrong with it after a refused send.
    func renderRoom(_ context: RequestContext, body: String, error: String?, status: HTTPStatus) throws -> HTTPResponse {
        let user = try context.requireUser()
        let userID = try user.storedID
        let (room, membership) = try memberRoom(context, userID: userID)
        let roomID = try room.storedID, language = context.language, now = Date(), pageSize = 50
        let form = context.form
        let before = form["before"].flatMap { Checked.id($0) }, after = form["after"].flatMap { Checked.id($0) }

        var messages: [MessageItem]
        var hasOlder = false, hasNewer = false
        if let after {
            messages = try database.talk.messages(roomID: roomID, after: after, viewerID: userID, limit: pageSize + 1)
            hasNewer = messages.count > pageSize
            messages = Array(messages.prefix(pageSize))
            hasOlder = true
        } else if before == nil, membership.unread > pageSize {
            // A long wait opens at the first unread message, with the older ones a link away.
            messages = try database.talk.messages(roomID: roomID, after: membership.lastReadID, viewerID: userID, limit: pageSize + 1)
            hasNewer = messages.count > pageSize
            messages = Array(messages.prefix(pageSize))
            hasOlder = membership.lastReadID > 0
        } else {
            messages = try database.talk.messages(roomID: roomID, before: before, viewerID: userID, limit: pageSize + 1)
            hasOlder = messages.count > pageSize
            messages = Array(messages.suffix(pageSize))
            hasNewer = before != nil
        }
        if let last = messages.last?.message.id, membership.state == .joined, last > membership.lastReadID {
            try database.talk.markRead(roomID: roomID, userID: userID, upTo: last)
        }

        let members = try database.talk.members(roomID: roomID)
        let crew = try room.crewID.flatMap { try database.crews.crew(id: $0) }
        let meetup = try room.meetupID.flatMap { try database.meetups.meetup(id: $0) }
        let others = members.filter { $0.id != userID }.map(\.displayName)
        let isStaff = try room.isCrews && room.crewID.map { try database.crews.crewRole(crewID: $0, userID: userID)?.isStaff == true } == true
        let firstUnread = messages.first { ($0.message.id ?? 0) > membership.lastReadID && $0.message.authorID != userID }?.message.id
        let replyTo = try form["reply"].flatMap { Checked.id($0) }.flatMap { try database.talk.message(id: $0) }
            .flatMap { $0.roomID == roomID ? $0 : nil }
        let replyAuthor = replyTo.flatMap { quoted in members.first { $0.id == quoted.authorID }?.displayName }
        let url = Paths.talkRoom(roomID)
        let view = RoomPageView(
            title: roomTitle(room, others: others, crewName: crew?.name, meetupTitle: meetup?.title, language),
            belongsTo: room.kind == .topic ? crew?.name : meetup.map { _ in localizer.text(.talk.meetup_page, language) },
            belongsToURL: room.kind == .topic ? crew.map { Paths.crew($0.slug) } : meetup.map { Paths.meetup($0.id ?? 0) },
            notice: try crew.flatMap { crew in
                room.kind == .crew ? try crewNotice(crew, role: try database.crews.crewRole(crewID: crew.storedID, userID: userID), viewerID: userID, language) : nil
            },
            url: url, members: members.map(UserView.init),
            messages: messages.map { item in
                MessageView(item, roomID: roomID, viewerID: userID, staffMayDelete: room.isCrews && isStaff, firstUnread: item.message.id == firstUnread,
                            posted: localizer.moment(item.message.createdAt, language, now: now), now: now,
                            photoAlt: { self.localizer.text(.posts.photo_alt, language, ["number": String($0), "name": item.author.displayName]) })
            },
            olderURL: hasOlder ? messages.first?.message.id.map { url + "?before=\($0)" } : nil,
            newerURL: hasNewer ? messages.last?.message.id.map { url + "?after=\($0)" } : nil,
            isRequest: membership.state == .request,
            canSend: membership.state == .joined && room.archivedAt == nil && !user.isSilenced(),
            archived: room.archivedAt != nil,
            replyTo: replyTo.map { MessageQuoteView(id: $0.id ?? 0, url: url + "#message-\($0.id ?? 0)", author: replyAuthor ?? "", text: String($0.body.prefix(120))) },
            body: body, error: error,
            muted: membership.mutedUntil.flatMap { until in
                until <= now ? nil : until > now.addingTimeInterval(Self.mutedForGood / 2)
                    ? localizer.text(.talk.muted, language) : localizer.text(.talk.muted_until, language, ["time": localizer.dateTime(until, language)])
            },
            canLeave: room.kind == .group || membership.state == .request,
            canArchive: room.kind == .topic && isStaff && room.archivedAt == nil,
            placeURL: configuration.tiles == nil ? nil : url + "/place",
            // Live from the last message shown, on the newest page only.
            liveURL: hasNewer ? nil : Paths.events + "?room=\(roomID)&after=\(messages.last?.message.id ?? 0)")
        return page(view, context, title: view.title, section: .talk, status: status)
    }

    /// The room `:id` names and the member's place in it; 404 for anyone not in it (and for a
    /// meetup's talk while staff keep the meetup hidden, but for its host).
    func memberRoom(_ context: RequestContext, userID: Int64) throws -> (Room, RoomMembership) {
        guard let id = context.request.parameters["id"].flatMap({ Checked.id($0) }),
              let found = try database.talk.room(id: id, for: userID) else { throw HTTPError(.notFound) }
        if let meetupID = found.room.meetupID, try !database.meetups.canTalk(meetupID: meetupID, userID: userID) { throw HTTPError(.notFound) }
        return found
    }

    /// "Until unmuted": a mute this long is shown without its end.
    static let mutedForGood: TimeInterval = 100 * 365 * 86_400
}
