import Foundation

/// Something that happened to a member: a follower, a comment, a reply or a mention.
public struct Notification: Codable, Sendable, Equatable, StoredRecord {
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

extension Notification: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    static let columns = ["id", "userID", "kind", "actorID", "postID", "commentID", "crewID", "meetupID", "detail", "createdAt", "readAt"]
    static let selection = SQLSelection(columns, table: "notifications")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        try row.checkColumns(Self.columns, from: offset)
        id = try row.decode(atIndex: offset)
        userID = try row.decode(atIndex: offset + 1)
        kind = try row.decodeRawValue(atIndex: offset + 2)
        actorID = try row.decode(atIndex: offset + 3)
        postID = try row.decode(atIndex: offset + 4)
        commentID = try row.decode(atIndex: offset + 5)
        crewID = try row.decode(atIndex: offset + 6)
        meetupID = try row.decode(atIndex: offset + 7)
        detail = try row.decode(atIndex: offset + 8)
        createdAt = try row.date(atIndex: offset + 9)
        readAt = try row.optionalDate(atIndex: offset + 10)
    }

    var columnValues: [(any SQLBindable)?] {
        [userID, kind.rawValue, actorID, postID, commentID, crewID, meetupID, detail, createdAt, readAt]
    }
}
