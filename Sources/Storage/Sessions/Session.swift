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
    /// When this session last gave a one-time or recovery code (staff pages ask for one).
    public var secondFactorAt: Date? = nil
    /// The browser's `User-Agent` when it signed in, for the list of signed-in browsers.
    public var userAgent: String = ""

    public static let databaseTableName = "sessions"

}

extension Session: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    enum Columns: Int, SQLColumn {
        case id, tokenHash, userID, csrfToken, createdAt, lastSeenAt, secondFactorAt, userAgent
    }

    static let selection = SQLSelection(Columns.self, table: "sessions")


    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        tokenHash = try column(.tokenHash)
        userID = try column(.userID)
        csrfToken = try column(.csrfToken)
        createdAt = try column(.createdAt)
        lastSeenAt = try column(.lastSeenAt)
        secondFactorAt = try column(.secondFactorAt)
        userAgent = try column(.userAgent)
    }

    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .tokenHash: tokenHash
        case .userID: userID
        case .csrfToken: csrfToken
        case .createdAt: createdAt
        case .lastSeenAt: lastSeenAt
        case .secondFactorAt: secondFactorAt
        case .userAgent: userAgent
        }
    }
}

/// A signed-in member's live session, read once per request.
public struct SignedInMember: Sendable {
    public var session: Session
    public var user: User
    public var notices: PageNotices
}

extension SignedInMember {
    /// A row of the session's columns, the user's, then `PageNotices.selectList`'s.
    init(row: some PositionalRow) throws {
        session = try Session(row: row, startingAt: 0)
        user = try User(row: row, startingAt: Session.selection.count)
        let column = try row.columns(of: PageNotices.self, from: Session.selection.count + User.selection.count)
        let warnings: String? = try column(.warnings)
        notices = PageNotices(unreadNotifications: try column(.unreadNotifications), unreadMessages: try column(.unreadMessages),
                              warnings: warnings.map { $0.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init) } ?? [])
    }
}

/// What the layout shows a member on every page: unread notifications and messages to count
/// (muted rooms left out), and the moderators' warnings not yet acknowledged, oldest first.
public struct PageNotices: Sendable {
    public var unreadNotifications: Int
    public var unreadMessages: Int
    public var warnings: [String]

    public init(unreadNotifications: Int = 0, unreadMessages: Int = 0, warnings: [String] = []) {
        self.unreadNotifications = unreadNotifications
        self.unreadMessages = unreadMessages
        self.warnings = warnings
    }
}

extension PageNotices: SQLColumns {
    /// Read by place after the session's and the member's columns, on every signed-in page.
    enum Columns: Int, SQLColumn {
        case unreadNotifications, unreadMessages, warnings
    }

    static let selection = SQLSelection(Columns.self, table: "users")

    /// The count of unread notifications, and the unread warnings joined by U+001F (warning
    /// texts hold no control characters, so the separator cannot occur in them).
    static func selectList(_ engine: SQLConnection.Engine) -> String {
        Columns.selectList { column in
            switch column {
            case .unreadNotifications: "(SELECT count(*) FROM notifications WHERE notifications.userID = users.id AND readAt IS NULL)"
            // Rooms with something unread only (`roomMembers_unread`), whatever the number of rooms.
            case .unreadMessages: """
                (SELECT coalesce(sum(unread), 0) FROM roomMembers WHERE roomMembers.userID = users.id AND unread > 0
                    AND state = 'joined' AND (mutedUntil IS NULL OR mutedUntil <= CURRENT_TIMESTAMP))
                """
            case .warnings: """
                (SELECT \(SQLConnection.joinedTexts("reason", separator: "\u{1F}", orderedBy: "id", engine: engine)) FROM
                    (SELECT id, reason FROM warnings WHERE warnings.userID = users.id AND readAt IS NULL ORDER BY id) AS unread)
                """
            }
        }
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
