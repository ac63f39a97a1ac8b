import Foundation

/// A signed-in browser. Only the SHA-256 of the cookie's token is stored, so a leaked
/// database does not leak live sessions.
public struct Session: Codable, Sendable, Equatable {
    public var id: Int64?
    public var tokenHash: Data
    public var userID: Int64
    public var csrfToken: String
    public var createdAt: Date
    public var lastSeenAt: Date

    public static let databaseTableName = "sessions"

}

extension Session: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    static let columns = ["id", "tokenHash", "userID", "csrfToken", "createdAt", "lastSeenAt"]
    static let selection = SQLSelection(columns, table: "sessions")


    init(row: some PositionalRow, startingAt offset: Int) throws {
        try row.checkColumns(Self.columns, from: offset)
        id = try row.decode(atIndex: offset)
        tokenHash = try row.decode(atIndex: offset + 1)
        userID = try row.decode(atIndex: offset + 2)
        csrfToken = try row.decode(atIndex: offset + 3)
        createdAt = try row.date(atIndex: offset + 4)
        lastSeenAt = try row.date(atIndex: offset + 5)
    }

    var columnValues: [(any SQLBindable)?] { [tokenHash, userID, csrfToken, createdAt, lastSeenAt] }
}

/// A signed-in member's live session, read once per request.
public struct SignedInMember: Sendable {
    public var session: Session
    public var user: User
    public var notices: PageNotices
}

extension SignedInMember {
    /// A row of the session's columns, the user's, the count of unread notifications and the
    /// unread warnings joined by U+001F.
    init(row: some PositionalRow) throws {
        session = try Session(row: row, startingAt: 0)
        user = try User(row: row, startingAt: Session.columns.count)
        let notices = Session.columns.count + User.columns.count
        let warnings: String? = try row.decode(atIndex: notices + 1)
        self.notices = PageNotices(
            unreadNotifications: try row.decode(atIndex: notices),
            warnings: warnings.map { $0.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init) } ?? [])
    }
}

/// What the layout shows a member on every page: unread notifications to count, and the
/// moderators' warnings not yet acknowledged, oldest first.
public struct PageNotices: Sendable {
    public var unreadNotifications: Int
    public var warnings: [String]

    public init(unreadNotifications: Int = 0, warnings: [String] = []) {
        self.unreadNotifications = unreadNotifications
        self.warnings = warnings
    }
}

/// How long sessions live.
public struct SessionLifetime: Sendable {
    /// A session unused this long is over.
    public var idle: TimeInterval = 14 * 24 * 3600
    /// No session lives longer than this, used or not.
    public var absolute: TimeInterval = 60 * 24 * 3600

    public init() {}
}
