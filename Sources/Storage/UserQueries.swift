import Foundation
import GRDB

extension AppDatabase {
    // MARK: - Reads

    public func user(id: Int64) throws -> User? {
        try reader.read { db in try User.fetchOne(db, key: id) }
    }

    /// The user with this username, ignoring case. Read on every profile page view, so its
    /// statement is prepared once and cached.
    public func user(username: String) throws -> User? {
        try readRows { connection in
            try connection.fetchOne("SELECT * FROM users WHERE username = ?", [username]) { try User(row: $0, startingAt: 0) }
        }
    }

    /// The user who signs in as `login`: a username or an email address, ignoring case.
    public func user(login: String) throws -> User? {
        try reader.read { db in
            try User.filter(User.Columns.username == login || User.Columns.email == login).fetchOne(db)
        }
    }

    public func userCount() throws -> Int {
        try readRows { connection in try connection.fetchOne("SELECT count(*) FROM users") { try $0.decode(atIndex: 0) as Int } ?? 0 }
    }

    // MARK: - Writes

    /// Inserts a new account; refuses a username or email already in use, ignoring case.
    public func createUser(_ user: User) throws -> User {
        try writer.write { db in
            var user = user
            if try User.filter(User.Columns.username == user.username).fetchCount(db) > 0 {
                throw StorageError.usernameTaken
            }
            if try User.filter(User.Columns.email == user.email).fetchCount(db) > 0 {
                throw StorageError.emailTaken
            }
            try user.insert(db)
            return user
        }
    }

    public func updateProfile(userID: Int64, _ changes: ProfileChanges) throws -> User {
        try writer.write { db in
            guard var user = try User.fetchOne(db, key: userID) else { throw StorageError.notFound }
            user.displayName = changes.displayName
            user.bio = changes.bio
            user.gender = changes.gender
            user.birthYear = changes.birthYear
            user.job = changes.job
            user.region = changes.region
            user.language = changes.language
            try user.update(db)
            return user
        }
    }

    /// Stores a new password hash and ends every session of the user except `keepingSession`,
    /// and every reset link sent before.
    public func changePassword(userID: Int64, passwordHash: String, keepingSession sessionID: Int64?) throws {
        try writer.write { db in
            guard var user = try User.fetchOne(db, key: userID) else { throw StorageError.notFound }
            user.passwordHash = passwordHash
            try user.update(db)
            try Session
                .filter(Session.Columns.userID == userID && Session.Columns.id != (sessionID ?? -1))
                .deleteAll(db)
            // A reset link asked for before the change no longer works.
            try db.execute(sql: "DELETE FROM emailTokens WHERE userID = ? AND purpose = 'reset'", arguments: [userID])
        }
    }

    /// Sets a user's role and ends their sessions, so that the new role starts with a new token.
    /// With `by`, the change is written to the moderation log.
    public func setRole(_ role: User.Role, username: String, by adminID: Int64? = nil, now: Date = Date()) throws -> User {
        try writer.write { db in
            guard var user = try User.filter(User.Columns.username == username).fetchOne(db) else {
                throw StorageError.notFound
            }
            user.role = role
            try user.update(db)
            try Session.filter(Session.Columns.userID == user.storedID).deleteAll(db)
            if let adminID {
                var entry = LogEntry(id: nil, moderatorID: adminID, action: "role", targetType: "user", targetID: try user.storedID,
                                     targetLabel: "@" + user.username, reason: role.rawValue, createdAt: now)
                try entry.insert(db)
            }
            return user
        }
    }
}
