import Foundation

/// A message of a talk thread or a guestbook as the live updates send it: text, not HTML.
public struct LiveMessage: Sendable, Equatable {
    public let id: Int64
    public let authorID: Int64
    public let authorUsername: String
    public let authorName: String
    public let body: String
    public let createdAt: Date
}

/// A signed-in browser's session as the live updates check it before each send.
public struct LiveSession: Sendable, Equatable {
    public let userID: Int64
    public let createdAt: Date
    public let lastSeenAt: Date
    public let suspendedUntil: Date?
    public let silencedUntil: Date?

    /// Whether it may still receive: not signed out (present at all), not expired, and its
    /// member neither suspended nor silenced.
    public func isLive(lifetime: SessionLifetime, at now: Date) -> Bool {
        now.timeIntervalSince(lastSeenAt) < lifetime.idle && now.timeIntervalSince(createdAt) < lifetime.absolute
            && !(suspendedUntil.map { $0 > now } ?? false) && !(silencedUntil.map { $0 > now } ?? false)
    }
}

extension LiveMessage {
    /// A row of `id, authorID, authorUsername, authorName, body, createdAt`.
    init(row: SQLRow) throws {
        id = try row.decode("id")
        authorID = try row.decode("authorID")
        authorUsername = try row.decode("authorUsername")
        authorName = try row.decode("authorName")
        body = try row.decode("body")
        createdAt = try row.decode("createdAt")
    }
}

extension LiveStore {
    /// The sessions among `ids` that still exist, with what decides whether they are live.
    public func liveSessions(ids: [Int64]) throws -> [Int64: LiveSession] {
        var found: [Int64: LiveSession] = [:]
        // In slices, well under both engines' limits on parameters.
        for start in stride(from: 0, to: ids.count, by: 500) {
            let slice = Array(ids[start..<min(ids.count, start + 500)])
            let marks = Array(repeating: "?", count: slice.count).joined(separator: ", ")
            _ = try database.readRows { db in
                try db.run("""
                    SELECT sessions.id, sessions.userID, sessions.createdAt, sessions.lastSeenAt, users.suspendedUntil, users.silencedUntil
                    FROM sessions JOIN users ON users.id = sessions.userID WHERE sessions.id IN (\(marks))
                    """, slice) { row in
                    found[try row.decode("id")] = LiveSession(
                        userID: try row.decode("userID"), createdAt: try row.decode("createdAt"), lastSeenAt: try row.decode("lastSeenAt"),
                        suspendedUntil: try row.decode("suspendedUntil"), silencedUntil: try row.decode("silencedUntil"))
                }
            }
        }
        return found
    }

    /// Who may read a meetup's talk: its host and the people it accepted; nobody while staff
    /// keep the meetup hidden but its host.
    public func talkReaders(meetupID: Int64) throws -> Set<Int64> {
        try database.readRows { db in
            Set(try db.values("""
                SELECT hostID FROM meetups WHERE id = ?1
                UNION SELECT a.userID FROM meetupApplications a JOIN meetups m ON m.id = a.meetupID
                WHERE a.meetupID = ?1 AND a.status = 'accepted' AND m.hiddenAt IS NULL
                """, [meetupID], as: Int64.self))
        }
    }

    /// A meetup's talk after the message `after`, oldest first, at most `limit`.
    public func talk(meetupID: Int64, after: Int64, limit: Int = 200) throws -> [LiveMessage] {
        try database.readRows { db in
            try db.fetchAll("""
                SELECT m.id, m.authorID, users.username AS authorUsername, users.displayName AS authorName, m.body, m.createdAt
                FROM messages m JOIN rooms ON rooms.id = m.roomID JOIN users ON users.id = m.authorID
                WHERE rooms.meetupID = ? AND m.id > ? AND m.deletedAt IS NULL ORDER BY m.id LIMIT ?
                """, [meetupID, after, limit], LiveMessage.init(row:))
        }
    }

    /// The newest message of a meetup's talk (0 for none).
    public func lastTalkID(meetupID: Int64) throws -> Int64 {
        try database.readRows { db in try db.value("SELECT lastMessageID FROM rooms WHERE meetupID = ?", [meetupID], as: Int64.self) ?? 0 }
    }

    /// Who may read a crew's guestbook as it happens: its members.
    public func guestbookReaders(crewID: Int64) throws -> Set<Int64> {
        try database.readRows { db in
            Set(try db.values("SELECT userID FROM crewMembers WHERE crewID = ? AND role != 'pending'", [crewID], as: Int64.self))
        }
    }

    /// A crew's guestbook after the comment `after`, oldest first, at most `limit`.
    public func guestbook(crewID: Int64, after: Int64, limit: Int = 200) throws -> [LiveMessage] {
        try database.readRows { db in
            try db.fetchAll("""
                SELECT c.id, c.authorID, users.username AS authorUsername, users.displayName AS authorName, c.body, c.createdAt FROM crewComments c JOIN users ON users.id = c.authorID
                WHERE c.crewID = ? AND c.id > ? ORDER BY c.id LIMIT ?
                """, [crewID, after, limit], LiveMessage.init(row:))
        }
    }

    /// The newest comment of a crew's guestbook (0 for none).
    public func lastGuestbookID(crewID: Int64) throws -> Int64 {
        try database.readRows { db in try db.value("SELECT max(id) FROM crewComments WHERE crewID = ?", [crewID], as: Int64.self) ?? 0 }
    }

    /// The members `userID` blocks or is blocked by: whose messages never reach them live.
    public func blockedEitherWay(userID: Int64) throws -> Set<Int64> {
        try database.readRows { db in
            Set(try db.values("SELECT blockedID FROM blocks WHERE blockerID = ?1 UNION SELECT blockerID FROM blocks WHERE blockedID = ?1", [userID], as: Int64.self))
        }
    }

    /// How many of a member's notifications are unread.
    public func unreadNotificationCount(userID: Int64) throws -> Int {
        try database.readRows { db in
            try db.value("SELECT count(*) FROM notifications WHERE userID = ? AND readAt IS NULL", [userID], as: Int.self) ?? 0
        }
    }
}
