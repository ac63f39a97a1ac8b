import Foundation
import GRDB

/// A signed-in browser. Only the SHA-256 of the cookie's token is stored, so a leaked
/// database does not leak live sessions.
public struct Session: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public var id: Int64?
    public var tokenHash: Data
    public var userID: Int64
    public var csrfToken: String
    public var createdAt: Date
    public var lastSeenAt: Date

    public static let databaseTableName = "sessions"

    public enum Columns {
        static let id = Column(CodingKeys.id)
        static let tokenHash = Column(CodingKeys.tokenHash)
        static let userID = Column(CodingKeys.userID)
        static let lastSeenAt = Column(CodingKeys.lastSeenAt)
        static let createdAt = Column(CodingKeys.createdAt)
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
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
        try writer.write { db in
            var session = Session(id: nil, tokenHash: tokenHash, userID: userID, csrfToken: csrfToken, createdAt: now, lastSeenAt: now)
            try session.insert(db)
            return session
        }
    }

    /// The live session with this token hash and its user; expired sessions count as absent.
    public func session(tokenHash: Data, lifetime: SessionLifetime, now: Date = Date()) throws -> (Session, User)? {
        try reader.read { db in
            // Read on every request of a signed-in member: a cached statement, not a built query.
            let statement = try db.cachedStatement(sql: "SELECT * FROM sessions WHERE tokenHash = ?")
            guard let session = try Session.fetchOne(statement, arguments: [tokenHash]),
                  now.timeIntervalSince(session.lastSeenAt) < lifetime.idle,
                  now.timeIntervalSince(session.createdAt) < lifetime.absolute,
                  let user = try User.fetchOne(db.cachedStatement(sql: "SELECT * FROM users WHERE id = ?"), arguments: [session.userID])
            else { return nil }
            return (session, user)
        }
    }

    /// Records use of a session; callers throttle this so reads do not each cost a write.
    public func touchSession(id: Int64, now: Date = Date()) throws {
        _ = try writer.write { db in
            try Session.filter(Session.Columns.id == id).updateAll(db, Session.Columns.lastSeenAt.set(to: now))
        }
    }

    public func deleteSession(id: Int64) throws {
        _ = try writer.write { db in try Session.deleteOne(db, key: id) }
    }

    /// Removes sessions past their idle or absolute lifetime.
    public func deleteExpiredSessions(lifetime: SessionLifetime, now: Date = Date()) throws -> Int {
        try writer.write { db in
            try Session
                .filter(Session.Columns.lastSeenAt < now.addingTimeInterval(-lifetime.idle)
                    || Session.Columns.createdAt < now.addingTimeInterval(-lifetime.absolute))
                .deleteAll(db)
        }
    }

    public func sessionCount(userID: Int64) throws -> Int {
        try reader.read { db in try Session.filter(Session.Columns.userID == userID).fetchCount(db) }
    }
}
