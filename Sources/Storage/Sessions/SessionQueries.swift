import Foundation

extension SessionStore {
    public func createSession(userID: Int64, tokenHash: Data, csrfToken: String, userAgent: String = "", now: Date = Date()) throws -> Session {
        try database.write { db in
            var session = Session(id: nil, tokenHash: tokenHash, userID: userID, csrfToken: csrfToken, createdAt: now, lastSeenAt: now,
                                  userAgent: String(userAgent.prefix(300)))
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

    /// Records use of a session; callers throttle this so reads do not each cost a write.
    public func touchSession(id: Int64, now: Date = Date()) throws {
        try database.write { db in try db.execute("UPDATE sessions SET lastSeenAt = ? WHERE id = ?", [now, id]) }
    }

    public func deleteSession(id: Int64) throws {
        try database.write { db in
            if let userID = try db.value("SELECT userID FROM sessions WHERE id = ?", [id], as: Int64.self) {
                db.changed(.member(userID: userID))
            }
            try db.execute("DELETE FROM sessions WHERE id = ?", [id])
        }
    }

    /// Removes sessions past their idle or absolute lifetime.
    /// A member's signed-in browsers, the most recently used first.
    public func sessions(userID: Int64) throws -> [Session] {
        try database.readRows { db in
            try db.records(Session.self, "SELECT \(Session.selection.bare) FROM sessions WHERE userID = ? ORDER BY lastSeenAt DESC, id DESC", [userID])
        }
    }

    /// Signs one of the member's browsers out; false if it is not theirs (or gone).
    public func endSession(id: Int64, userID: Int64) throws -> Bool {
        try database.write { db in
            db.changed(.member(userID: userID))
            return try db.execute("DELETE FROM sessions WHERE id = ? AND userID = ?", [id, userID]) == 1
        }
    }

    /// Signs every browser of the member out but `keeping`, and renews their private calendar
    /// address (an old link in a calendar app stops working): "sign out everywhere".
    public func endOtherSessions(userID: Int64, keeping sessionID: Int64) throws {
        try database.write { db in
            try db.execute("DELETE FROM sessions WHERE userID = ? AND id != ?", [userID, sessionID])
            try db.execute("UPDATE users SET calendarToken = NULL WHERE id = ?", [userID])
            db.changed(.member(userID: userID))
        }
    }

    public func deleteExpiredSessions(lifetime: SessionLifetime, now: Date = Date()) throws -> Int {
        try database.write { db in
            try db.execute("DELETE FROM sessions WHERE lastSeenAt < ? OR createdAt < ?",
                           [now.addingTimeInterval(-lifetime.idle), now.addingTimeInterval(-lifetime.absolute)])
        }
    }

    public func sessionCount(userID: Int64) throws -> Int {
        try database.readRows { db in try db.value("SELECT count(*) FROM sessions WHERE userID = ?", [userID]) ?? 0 }
    }
}

extension SessionStore {
    private func readSession(_ tokenHash: Data) throws -> SignedInMember? {
        let sql = Self.sessionSQL[database.engine]
        // Counted before the read: a write that commits during it leaves what it read stale.
        let generation = database.keptGeneration
        let member = try database.readRows { connection in try connection.fetchOne(sql, [tokenHash]) { try SignedInMember(row: $0) } }
        if let member, let generation {
            let session = KeptSession(member: member, generation: generation, readAt: DispatchTime.now().uptimeNanoseconds)
            database.kept.sessions.keep(tokenHash, session, size: session.size)
        }
        return member
    }

    /// The member read for this session since anything that could change it, within the last second.
    private func keptSession(_ tokenHash: Data) -> SignedInMember? {
        guard let generation = database.keptGeneration else { return nil }
        let now = DispatchTime.now().uptimeNanoseconds
        return database.kept.sessions.value(tokenHash) { session in
            session.generation == generation && now &- session.readAt < KeptSession.lifetime ? session.member : nil
        }
    }

    /// The statement `session(tokenHash:)` reads, for each engine; built once, as the statement
    /// cache finds it by its text.
    private static let sessionSQL = PerEngine { engine in
        """
        SELECT \(Session.selection.qualified), \(User.selection.qualified), \(PageNotices.selectList(engine))
        FROM sessions JOIN users ON users.id = sessions.userID
        WHERE sessions.tokenHash = ?
        """
    }
}
