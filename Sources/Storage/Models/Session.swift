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
    /// The table's columns in its own order, which `init(row:)` reads by position.
    static let columns = ["id", "tokenHash", "userID", "csrfToken", "createdAt", "lastSeenAt"]


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

extension AppDatabase {
    public func createSession(userID: Int64, tokenHash: Data, csrfToken: String, now: Date = Date()) throws -> Session {
        try write { db in
            var session = Session(id: nil, tokenHash: tokenHash, userID: userID, csrfToken: csrfToken, createdAt: now, lastSeenAt: now)
            session.id = try db.insert(session)
            return session
        }
    }

    /// The live session with this token hash, its user and what the layout shows them on every
    /// page, in one statement (a signed-in page view reads this first); expired sessions
    /// count as absent.
    ///
    /// What was read is kept for a second at most, and dropped sooner by any write this
    /// process commits (any write: a like may be someone's notification) and, on PostgreSQL,
    /// by any change to a member heard from a server sharing the database (signed out,
    /// suspended, a notification: `Change.concernsMembers`, over `LISTEN`); it spared a
    /// signed-in page 3.5 µs of its 58 on SQLite, and a round trip on PostgreSQL. A change
    /// that tells no one (another server's profile edit, a `moim` command) shows within the
    /// second.
    public func session(tokenHash: Data, lifetime: SessionLifetime, now: Date = Date()) throws -> SignedInMember? {
        guard let member = try keptSession(tokenHash) ?? readSession(tokenHash),
              now.timeIntervalSince(member.session.lastSeenAt) < lifetime.idle,
              now.timeIntervalSince(member.session.createdAt) < lifetime.absolute
        else { return nil }
        return member
    }

    private func readSession(_ tokenHash: Data) throws -> SignedInMember? {
        let sql = engine == .postgres ? Self.sessionSQL.postgres : Self.sessionSQL.sqlite
        // Counted before the read: a write that commits during it leaves what it read stale.
        let generation = keptGeneration
        let member = try readRows { connection in try connection.fetchOne(sql, [tokenHash]) { try SignedInMember(row: $0) } }
        if let member, let generation {
            let session = KeptSession(member: member, generation: generation, readAt: DispatchTime.now().uptimeNanoseconds)
            kept.sessions.keep(tokenHash, session, size: session.size)
        }
        return member
    }

    /// The member read for this session since anything that could change it, within the last second.
    private func keptSession(_ tokenHash: Data) -> SignedInMember? {
        guard let generation = keptGeneration else { return nil }
        let now = DispatchTime.now().uptimeNanoseconds
        return kept.sessions.value(tokenHash) { session in
            session.generation == generation && now &- session.readAt < KeptSession.lifetime ? session.member : nil
        }
    }

    /// A number that changes whenever a kept session may have gone stale: this process's writes
    /// on SQLite; on PostgreSQL those plus the member changes heard, or nil (keep nothing)
    /// until they are heard.
    private var keptGeneration: UInt64? {
        switch store {
        case .sqlite(let sqlite):
            return sqlite.writes.load(ordering: .sequentiallyConsistent)
        case .postgres:
            guard hearsMemberChanges() else { return nil }
            return kept.writes.load(ordering: .sequentiallyConsistent) &+ kept.memberChanges.load(ordering: .sequentiallyConsistent)
        }
    }

    /// Starts listening for member changes the first time a session is read (a tool that reads
    /// none opens no listening connection); true once they are heard.
    private func hearsMemberChanges() -> Bool {
        if kept.listening.load(ordering: .acquiring) == .yes { return true }
        guard kept.listening.compareExchange(expected: .no, desired: .starting, ordering: .acquiringAndReleasing).exchanged else { return false }
        let kept = kept
        signal.listen { changes in
            if changes.contains(where: \.concernsMembers) { kept.memberChanges.add(1, ordering: .sequentiallyConsistent) }
        }
        kept.listening.store(.yes, ordering: .releasing)
        return true
    }

    /// The statement `session(tokenHash:)` reads, for each engine; built once, as the statement
    /// cache finds it by its text. Warning texts hold no control characters, so the unit
    /// separator cannot occur in them.
    private static let sessionSQL = (sqlite: sessionSQL(warnings: """
        (SELECT group_concat(reason, char(31)) FROM
             (SELECT reason FROM warnings WHERE warnings.userID = users.id AND readAt IS NULL ORDER BY id))
        """), postgres: sessionSQL(warnings: """
        (SELECT string_agg(reason, chr(31) ORDER BY id) FROM warnings WHERE warnings.userID = users.id AND readAt IS NULL)
        """))

    private static func sessionSQL(warnings: String) -> String {
        """
        SELECT sessions.*, users.*,
               (SELECT count(*) FROM notifications WHERE notifications.userID = users.id AND readAt IS NULL),
               \(warnings)
        FROM sessions JOIN users ON users.id = sessions.userID
        WHERE sessions.tokenHash = ?
        """
    }

    /// Records use of a session; callers throttle this so reads do not each cost a write.
    public func touchSession(id: Int64, now: Date = Date()) throws {
        try write { db in try db.execute("UPDATE sessions SET lastSeenAt = ? WHERE id = ?", [now, id]) }
    }

    public func deleteSession(id: Int64) throws {
        try write { db in
            if let userID = try db.value("SELECT userID FROM sessions WHERE id = ?", [id], as: Int64.self) {
                db.changed(.member(userID: userID))
            }
            try db.execute("DELETE FROM sessions WHERE id = ?", [id])
        }
    }

    /// Removes sessions past their idle or absolute lifetime.
    public func deleteExpiredSessions(lifetime: SessionLifetime, now: Date = Date()) throws -> Int {
        try write { db in
            try db.execute("DELETE FROM sessions WHERE lastSeenAt < ? OR createdAt < ?",
                           [now.addingTimeInterval(-lifetime.idle), now.addingTimeInterval(-lifetime.absolute)])
        }
    }

    public func sessionCount(userID: Int64) throws -> Int {
        try readRows { db in try db.value("SELECT count(*) FROM sessions WHERE userID = ?", [userID]) ?? 0 }
    }
}
