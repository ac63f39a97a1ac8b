import Foundation

extension FeedStore {
    /// A page of the notifications of `userID`, newest first: the newest, or those older than
    /// the id `before`; and whether older ones remain.
    public func notifications(userID: Int64, before: Int64? = nil, limit: Int = 50) throws -> (items: [NotificationItem], more: Bool) {
        try database.read { db in
            let notifications = try db.records(Notification.self, """
                SELECT \(Notification.selection.bare) FROM notifications WHERE userID = ? AND id < ? ORDER BY id DESC LIMIT ?
                """, [userID, before ?? Int64.max, limit + 1])
            return (try database.items(db, Array(notifications.prefix(limit))), notifications.count > limit)
        }
    }

    /// Marks read the member's notifications with ids in `shown` (a page's, oldest to newest):
    /// what the page showed, not what it did not. Returns how many were unread.
    @discardableResult
    public func markNotificationsRead(userID: Int64, shown: ClosedRange<Int64>, now: Date = Date()) throws -> Int {
        try database.write { db in
            let marked = try db.execute("UPDATE notifications SET readAt = ? WHERE userID = ? AND readAt IS NULL AND id BETWEEN ? AND ?",
                                        [now, userID, shown.lowerBound, shown.upperBound])
            if marked > 0 { db.changed(.notifications(userID: userID)) }
            return marked
        }
    }
}

extension AppDatabase {
    func insertNotification(
        _ db: SQLConnection, userID: Int64, kind: Notification.Kind, actorID: Int64, postID: Int64?, commentID: Int64?,
        crewID: Int64? = nil, meetupID: Int64? = nil, detail: String = "", now: Date
    ) throws {
        let notification = Notification(id: nil, userID: userID, kind: kind, actorID: actorID, postID: postID,
                                        commentID: commentID, crewID: crewID, meetupID: meetupID, detail: detail,
                                        createdAt: now, readAt: nil)
        let id = try db.insert(notification)
        db.changed(.notifications(userID: userID))
        try enqueuePush(db, userID: userID, notificationID: id, kind: kind, now: now)
    }

    /// The notifications with their actors, crews, meetup titles and previews.
    func items(_ db: SQLConnection, _ notifications: [Notification]) throws -> [NotificationItem] {
        let actors = try db.records(User.self, ids: Set(notifications.map(\.actorID))).reduce(into: [Int64: User]()) { $0[$1.id ?? 0] = $1 }
        let crews = try db.records(Crew.self, ids: Set(notifications.compactMap(\.crewID))).reduce(into: [Int64: Crew]()) { $0[$1.id ?? 0] = $1 }
        let commentIDs = Array(Set(notifications.compactMap(\.commentID)))
        let comments = try bodies(db, table: "comments", ids: commentIDs, alive: "deletedAt IS NULL AND hiddenAt IS NULL")
        let postIDs = Array(Set(notifications.filter { $0.kind == .mention && $0.commentID == nil }.compactMap(\.postID)))
        let posts = try bodies(db, table: "posts", ids: postIDs, alive: "hiddenAt IS NULL")
        let meetups = try mentions(db, ids: Array(Set(notifications.compactMap(\.meetupID))))
        return notifications.compactMap { notification in
            actors[notification.actorID].map {
                NotificationItem(notification: notification, actor: $0, crew: notification.crewID.flatMap { crews[$0] },
                                 preview: notification.kind == .crewNotice ? notification.detail
                                     : notification.commentID.map { comments[$0] } ?? notification.postID.flatMap { posts[$0] },
                                 meetup: notification.meetupID.flatMap { meetups[$0] })
            }
        }
    }

    fileprivate func mentions(_ db: SQLConnection, ids: [Int64]) throws -> [Int64: MeetupMention] {
        guard !ids.isEmpty else { return [:] }
        let rows = try db.fetchAll("SELECT id, title, startsAt, placeName FROM meetups WHERE id IN (\(db.idList("?")))", [SQLConnection.jsonArray(ids)]) {
            (try $0.decode("id", as: Int64.self),
             MeetupMention(title: try $0.decode("title"), startsAt: try $0.decode("startsAt"), place: try $0.decode("placeName")))
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// The Markdown of the rows `ids` of `table` that are still shown.
    fileprivate func bodies(_ db: SQLConnection, table: String, ids: [Int64], alive: String) throws -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        let rows = try db.fetchAll("SELECT id, body FROM \(table) WHERE id IN (\(db.idList("?"))) AND \(alive)", [SQLConnection.jsonArray(ids)]) {
            (try $0.decode("id", as: Int64.self), try $0.decode("body", as: String.self))
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }
}
