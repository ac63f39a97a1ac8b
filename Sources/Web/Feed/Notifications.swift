import HTTP
import Storage

/// The member's newest notifications.
struct NotificationsView: PageView {
    static let template = "notifications"
    let notifications: [NotificationView]
    var hasNotifications: Bool { !notifications.isEmpty }
}

struct NotificationView {
    let actor: UserView
    let text: String
    let url: String
    let posted: Moment
    let unread: Bool
}

extension App {
    /// `GET /notifications`: the newest notifications; viewing them marks them read.
    func notifications(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let language = context.language
        let items = try database.notifications(userID: user.storedID)
        let views = items.map { item in
            let notification = item.notification
            let target: String = switch notification.kind {
            case .follow: Paths.profile(item.actor.username)
            case .comment, .reply, .mention:
                notification.commentID.map { Paths.comment($0, post: notification.postID ?? 0) }
                    ?? notification.postID.map(Paths.post) ?? Paths.profile(item.actor.username)
            case .crewRequest:
                item.crew.map { Paths.crewMembers($0.slug) } ?? Paths.crews
            case .crewAccepted, .crewRejected:
                item.crew.map { Paths.crew($0.slug) } ?? Paths.crews
            case .meetupApplied, .meetupAccepted, .meetupRejected, .meetupPromoted, .meetupChanged:
                notification.meetupID.map(Paths.meetup) ?? Paths.meetups
            }
            return NotificationView(
                actor: UserView(item.actor),
                text: localizer.text("notifications.\(notification.kind.rawValue)", language,
                                     ["name": item.actor.displayName, "crew": item.crew?.name ?? "", "detail": notification.detail]),
                url: target,
                posted: localizer.moment(notification.createdAt, language),
                unread: notification.readAt == nil)
        }
        try database.markNotificationsRead(userID: user.storedID)
        var context = context
        context.notices.unreadNotifications = 0
        return page(NotificationsView(notifications: views), context, title: localizer.text("notifications.title", language))
    }
}
