import Foundation

extension AccountStore {
    // MARK: - Reads

    public func user(id: Int64) throws -> User? {
        try database.readRows { db in try db.record(User.self, id: id) }
    }

    /// The members `ids` name that still have an account, by id (one statement).
    public func users(ids: Set<Int64>) throws -> [Int64: User] {
        try database.readRows { db in
            try db.records(User.self, ids: ids).reduce(into: [Int64: User]()) { $0[$1.id ?? 0] = $1 }
        }
    }

    /// The user with this username, ignoring case. Read on every profile page view, so its
    /// statement is prepared once and cached.
    public func user(username: String) throws -> User? {
        try database.readRows { db in try db.record(User.self, "SELECT \(User.selection.bare) FROM users WHERE username = ?", [username]) }
    }

    /// The user who signs in as `login`: a username or an email address, ignoring case.
    public func user(login: String) throws -> User? {
        try database.readRows { db in try db.record(User.self, "SELECT \(User.selection.bare) FROM users WHERE username = ?1 OR email = ?1", [login]) }
    }

    public func userCount() throws -> Int {
        try database.readRows { db in try db.value("SELECT count(*) FROM users") ?? 0 }
    }

    // MARK: - Writes

    /// Inserts a new account with what its newcomer agreed to, in one transaction; refuses a
    /// username or email already in use, ignoring case. `consent` is nil only for accounts
    /// made outside the signup pages (tests, tools); those are asked on their first page.
    public func createUser(_ user: User, consent: Consent? = nil) throws -> User {
        try database.write { db in
            if try db.value("SELECT EXISTS (SELECT 1 FROM users WHERE username = ?)", [user.username]) == true {
                throw StorageError.usernameTaken
            }
            if try db.value("SELECT EXISTS (SELECT 1 FROM users WHERE email = ?)", [user.email]) == true {
                throw StorageError.emailTaken
            }
            return try insert(user, consent: consent, in: db)
        }
    }

    /// Inserts `user`, and their agreements.
    func insert(_ user: User, consent: Consent?, in db: SQLConnection) throws -> User {
        var user = user
        if let consent {
            user.termsVersion = consent.terms ?? 0
            user.privacyVersion = consent.privacy ?? 0
            user.marketingSince = consent.marketing ? user.createdAt : nil
        }
        user.id = try db.insert(user)
        if let consent { try record(consent, userID: try user.storedID, in: db, now: user.createdAt) }
        return user
    }

    /// Stores a new password hash and ends every session of the user except `keepingSession`,
    /// every reset link sent before, and the private calendar address.
    public func changePassword(userID: Int64, passwordHash: String, keepingSession sessionID: Int64?) throws {
        try database.write { db in
            guard try db.execute("UPDATE users SET passwordHash = ? WHERE id = ?", [passwordHash, userID]) == 1 else {
                throw StorageError.notFound
            }
            try db.execute("DELETE FROM sessions WHERE userID = ? AND id != ?", [userID, sessionID ?? -1])
            // The private calendar address was as good as a password: a new one too.
            try db.execute("UPDATE users SET calendarToken = NULL WHERE id = ?", [userID])
            db.changed(.member(userID: userID))
            // A reset link asked for before the change no longer works.
            try db.execute("DELETE FROM emailTokens WHERE userID = ? AND purpose = 'reset'", [userID])
        }
    }

    /// Sets a user's role and ends their sessions, so that the new role starts with a new token.
    /// With `by`, the change is written to the moderation log.
    public func setRole(_ role: User.Role, username: String, by adminID: Int64? = nil, now: Date = Date()) throws -> User {
        try database.write { db in
            guard var user = try db.record(User.self, "SELECT \(User.selection.bare) FROM users WHERE username = ?", [username]) else {
                throw StorageError.notFound
            }
            user.role = role
            try db.update(user)
            try db.execute("DELETE FROM sessions WHERE userID = ?", [user.id])
            db.changed(.member(userID: try user.storedID))
            if let adminID {
                let entry = LogEntry(id: nil, moderatorID: adminID, action: "role", targetType: "user", targetID: try user.storedID,
                                     targetLabel: "@" + user.username, reason: role.rawValue, createdAt: now)
                _ = try db.insert(entry)
            }
            return user
        }
    }
}
