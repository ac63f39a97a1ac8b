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
        /// A crew's staff posted a notice (`detail`: the start of its text).
        case crewNotice
        /// A member scheduled a meetup in one's crew (`detail`: its title).
        case crewMeetup
        /// The host called off a meetup one goes to or waits for (`detail`: their reason).
        case meetupCancelled
        /// A meetup one goes to starts within a day, or within the hour.
        case meetupTomorrow, meetupSoon

        public var isReminder: Bool { self == .meetupTomorrow || self == .meetupSoon }
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
    /// The meetup, when it is about one.
    public var meetup: MeetupMention?
    public var meetupTitle: String? { meetup?.title }
}

/// What a notification says of the meetup it is about.
public struct MeetupMention: Sendable, Equatable {
    public var title: String
    public var startsAt: Date
    public var place: String
}

extension Notification: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    enum Columns: Int, SQLColumn {
        case id, userID, kind, actorID, postID, commentID, crewID, meetupID, detail, createdAt, readAt
    }

    static let selection = SQLSelection(Columns.self, table: "notifications")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        userID = try column(.userID)
        kind = try column(.kind)
        actorID = try column(.actorID)
        postID = try column(.postID)
        commentID = try column(.commentID)
        crewID = try column(.crewID)
        meetupID = try column(.meetupID)
        detail = try column(.detail)
        createdAt = try column(.createdAt)
        readAt = try column(.readAt)
    }

    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .userID: userID
        case .kind: kind.rawValue
        case .actorID: actorID
        case .postID: postID
        case .commentID: commentID
        case .crewID: crewID
        case .meetupID: meetupID
        case .detail: detail
        case .createdAt: createdAt
        case .readAt: readAt
        }
    }
}
