import Foundation
import GRDB

/// Something that happened to a member: a follower, a comment, a reply or a mention.
public struct Notification: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord, StoredRecord {
    public enum Kind: String, Codable, Sendable {
        case follow, comment, reply, mention
        case crewRequest, crewAccepted, crewRejected
        case meetupApplied, meetupAccepted, meetupRejected, meetupPromoted, meetupChanged
        /// The host moved the meetup: confirm your place. / You did not, and lost it.
        case meetupConfirm, meetupUnconfirmed
        /// The lottery's result: a place, or a place on the waitlist (`detail`: its number).
        case meetupLotteryWon, meetupLotteryLost
    }

    public var id: Int64?
    public var userID: Int64
    public var kind: Kind
    public var actorID: Int64
    public var postID: Int64?
    public var commentID: Int64?
    public var crewID: Int64?
    public var meetupID: Int64?
    /// What changed, for `meetupChanged`.
    public var detail: String
    public var createdAt: Date
    public var readAt: Date?

    public static let databaseTableName = "notifications"

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// A notification with the member who caused it, and the crew it concerns, if any.
public struct NotificationItem: Sendable, Equatable {
    public var notification: Notification
    public var actor: User
    public var crew: Crew?
    /// The Markdown of the comment (or, for a mention in a post, the post) it is about.
    public var preview: String?
    /// The meetup's title, when it is about one.
    public var meetupTitle: String?
}

extension AppDatabase {
    func insertNotification(
        _ db: Database, userID: Int64, kind: Notification.Kind, actorID: Int64, postID: Int64?, commentID: Int64?,
        crewID: Int64? = nil, meetupID: Int64? = nil, detail: String = "", now: Date
    ) throws {
        var notification = Notification(id: nil, userID: userID, kind: kind, actorID: actorID, postID: postID,
                                        commentID: commentID, crewID: crewID, meetupID: meetupID, detail: detail,
                                        createdAt: now, readAt: nil)
        try notification.insert(db)
    }

    /// The newest notifications of `userID`.
    public func notifications(userID: Int64, limit: Int = 50) throws -> [NotificationItem] {
        try reader.read { db in
            let notifications = try Notification.fetchAll(db.cachedStatement(sql: "SELECT * FROM notifications WHERE userID = ? ORDER BY id DESC LIMIT ?"),
                                                          arguments: [userID, limit])
            return try items(db, notifications)
        }
    }

    /// The notifications with their actors, crews, meetup titles and previews.
    func items(_ db: Database, _ notifications: [Notification]) throws -> [NotificationItem] {
        let actors = try User.fetchAll(db, keys: Array(Set(notifications.map(\.actorID)))).reduce(into: [Int64: User]()) { $0[$1.id ?? 0] = $1 }
        let crews = try Crew.fetchAll(db, keys: Array(Set(notifications.compactMap(\.crewID)))).reduce(into: [Int64: Crew]()) { $0[$1.id ?? 0] = $1 }
        let commentIDs = Array(Set(notifications.compactMap(\.commentID)))
        let comments = try bodies(db, table: "comments", ids: commentIDs, alive: "deletedAt IS NULL AND hiddenAt IS NULL")
        let postIDs = Array(Set(notifications.filter { $0.kind == .mention && $0.commentID == nil }.compactMap(\.postID)))
        let posts = try bodies(db, table: "posts", ids: postIDs, alive: "hiddenAt IS NULL")
        let meetups = try titles(db, ids: Array(Set(notifications.compactMap(\.meetupID))))
        return notifications.compactMap { notification in
            actors[notification.actorID].map {
                NotificationItem(notification: notification, actor: $0, crew: notification.crewID.flatMap { crews[$0] },
                                 preview: notification.commentID.map { comments[$0] } ?? notification.postID.flatMap { posts[$0] },
                                 meetupTitle: notification.meetupID.flatMap { meetups[$0] })
            }
        }
    }

    private func titles(_ db: Database, ids: [Int64]) throws -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ",")
        let rows = try Row.fetchAll(db, sql: "SELECT id, title FROM meetups WHERE id IN (\(placeholders))", arguments: StatementArguments(ids))
        return rows.reduce(into: [:]) { titles, row in titles[row["id"]] = row["title"] }
    }

    /// The Markdown of the rows `ids` of `table` that are still shown.
    private func bodies(_ db: Database, table: String, ids: [Int64], alive: String) throws -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ",")
        let rows = try Row.fetchAll(db, sql: "SELECT id, body FROM \(table) WHERE id IN (\(placeholders)) AND \(alive)",
                                    arguments: StatementArguments(ids))
        return rows.reduce(into: [:]) { bodies, row in bodies[row["id"]] = row["body"] }
    }

    public func markNotificationsRead(userID: Int64, now: Date = Date()) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE notifications SET readAt = ? WHERE userID = ? AND readAt IS NULL", arguments: [now, userID])
        }
    }
}
