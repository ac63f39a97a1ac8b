import Formats
import HTTP
import Storage

/// The member's newest notifications.
struct NotificationsView: PageView {
    static let template = "notifications"
    let notifications: [NotificationView]
    var hasNotifications: Bool { !notifications.isEmpty }
    /// The next page, of older ones.
    let olderURL: String?
}

/// One line of the list: several follows (or comments on one post, applications to one
/// meetup, requests to join one crew) are one line, "Mina and 3 others followed you".
struct NotificationView {
    let actor: UserView
    /// The sentence around the actor's name, which is set in bold.
    let lead: String
    let name: String?
    let tail: String
    let url: String
    /// The start of the comment it is about.
    let preview: String?
    let posted: Moment
    let unread: Bool

    /// The whole sentence as plain text, for mail.
    var sentence: String { lead + (name ?? "") + tail }
}

extension App {
    /// `GET /notifications` (`?before=` an id for older ones): a page of notifications, newest
    /// first; those the page shows are marked read, and only those.
    func notifications(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let language = context.language
        let before = context.form["before"].flatMap(Checked.id)
        let page = try database.feed.notifications(userID: user.storedID, before: before)
        let views = Self.grouped(page.items).map { describe($0, language) }
        var context = context
        // A write only when the bell had something to clear: most views have nothing unread.
        let ids = page.items.compactMap(\.notification.id)
        if context.notices.unreadNotifications > 0, let oldest = ids.min(), let newest = ids.max() {
            let marked = try database.feed.markNotificationsRead(userID: user.storedID, shown: oldest...newest)
            context.notices.unreadNotifications = max(0, context.notices.unreadNotifications - marked)
        }
        let older = page.more ? ids.min().map { Paths.notifications + "?before=\($0)" } : nil
        return self.page(NotificationsView(notifications: views, olderURL: older), context, title: localizer.text(.notifications.title, language))
    }

    /// One line for a group of notifications (the newest first), as the page and the digest
    /// mail show it.
    func describe(_ group: [NotificationItem], _ language: Language) -> NotificationView {
        let newest = group[0]
        let notification = newest.notification
        let key = notification.kind.sentenceKey(grouped: group.count > 1)
        // {name} is left in place and split on, so that the name can be bold and escaped.
        let sentence = localizer.text(key, language, [
            "crew": newest.crew?.name ?? "", "detail": notification.detail,
            "others": localizer.count(.notifications.others, group.count - 1, language),
            "title": newest.meetup?.title ?? "", "place": newest.meetup?.place ?? "",
            "when": newest.meetup.map { localizer.meetupStart($0.startsAt, language) } ?? "",
        ])
        let parts = sentence.components(separatedBy: "{name}")
        return NotificationView(
            actor: UserView(newest.actor),
            lead: parts[0],
            name: parts.count > 1 ? newest.actor.displayName : nil,
            tail: parts.dropFirst().joined(separator: newest.actor.displayName),
            url: target(of: newest),
            preview: newest.preview.map { $0.clipped(140) }.flatMap { $0.isEmpty ? nil : $0 },
            posted: localizer.moment(notification.createdAt, language),
            unread: group.contains { $0.notification.readAt == nil })
    }

    /// Newest first, with the notifications that say the same thing of the same target
    /// gathered under the newest of them.
    static func grouped(_ items: [NotificationItem]) -> [[NotificationItem]] {
        var groups: [[NotificationItem]] = []
        var index: [String: Int] = [:]
        for item in items {
            let notification = item.notification
            let target: Int64? = switch notification.kind {
            case .follow: 0
            case .comment: notification.postID
            case .meetupApplied: notification.meetupID
            case .crewRequest: notification.crewID
            default: nil
            }
            guard let target else {
                groups.append([item])
                continue
            }
            let key = "\(notification.kind.rawValue)/\(target)"
            if let existing = index[key] {
                // One line per person: a second follow by the same member is not news.
                if !groups[existing].contains(where: { $0.actor.id == item.actor.id }) { groups[existing].append(item) }
            } else {
                index[key] = groups.count
                groups.append([item])
            }
        }
        return groups
    }

    private func target(of item: NotificationItem) -> String {
        let notification = item.notification
        return switch notification.kind {
        case .follow: Paths.profile(item.actor.username)
        case .comment, .reply, .mention:
            notification.commentID.map { Paths.comment($0, post: notification.postID ?? 0) }
                ?? notification.postID.map(Paths.post) ?? Paths.profile(item.actor.username)
        case .crewRequest:
            item.crew.map { Paths.crewMembers($0.slug) } ?? Paths.crews
        case .crewAccepted, .crewRejected, .crewNotice:
            item.crew.map { Paths.crew($0.slug) } ?? Paths.crews
        case .meetupApplied, .meetupAccepted, .meetupRejected, .meetupPromoted, .meetupChanged, .meetupConfirm, .meetupUnconfirmed,
             .meetupLotteryWon, .meetupLotteryLost, .crewMeetup, .meetupCancelled, .meetupTomorrow, .meetupSoon:
            notification.meetupID.map(Paths.meetup) ?? Paths.meetups
        }
    }
}
