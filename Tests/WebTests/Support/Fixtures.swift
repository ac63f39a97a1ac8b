import Foundation
@testable import Storage

/// What web tests need of the database beyond what pages do: moving a meetup or a retro in
/// time, reading what no page shows, and stored rows no write would make (outside data). Web
/// tests call these by name; the SQL stays here.
extension AppDatabase {
    // MARK: - Moving in time

    /// Moves a meetup's start and signup deadline, as if it had been planned for then.
    func moveMeetup(id: Int64, startsAt: Date? = nil, deadline: Date) throws {
        try write { db in
            if let startsAt { try db.execute("UPDATE meetups SET startsAt = ? WHERE id = ?", [startsAt, id]) }
            try db.execute("UPDATE meetups SET deadline = ? WHERE id = ?", [deadline, id])
        }
    }

    /// Moves a retrospective's start (by its id, or by its meetup's).
    func moveRetro(id: Int64? = nil, meetupID: Int64? = nil, startsAt: Date) throws {
        try write { db in
            if let id { try db.execute("UPDATE retros SET startsAt = ? WHERE id = ?", [startsAt, id]) }
            if let meetupID { try db.execute("UPDATE retros SET startsAt = ? WHERE meetupID = ?", [startsAt, meetupID]) }
        }
    }

    // MARK: - What no page shows

    /// The posts `username` likes, as stored.
    func likedPostIDs(username: String) throws -> Set<Int64> {
        try read { db in
            Set(try db.values("SELECT likes.postID FROM likes JOIN users ON users.id = likes.userID WHERE users.username = ?", [username], as: Int64.self))
        }
    }

    func allPostIDs() throws -> Set<Int64> {
        try read { db in Set(try db.values("SELECT id FROM posts", as: Int64.self)) }
    }

    /// SQLite's `integrity_check`: `ok`, or what is wrong.
    func integrityCheck() throws -> String? {
        try read { db in try db.value("PRAGMA integrity_check", as: String.self) }
    }

    /// Wrong check-in codes counted against `userID` at a meetup.
    func checkInFailures(meetupID: Int64, userID: Int64) throws -> Int? {
        try read { db in try db.value("SELECT failures FROM checkinAttempts WHERE meetupID = ? AND userID = ?", [meetupID, userID], as: Int.self) }
    }

    /// Everyone who entered a meetup's signup or lottery, whatever their status.
    func applicationCount(meetupID: Int64) throws -> Int {
        try read { db in try db.value("SELECT count(*) FROM meetupApplications WHERE meetupID = ?", [meetupID], as: Int.self) ?? 0 }
    }

    /// Notifications of these kinds, for everyone.
    func notificationCount(kinds: [Storage.Notification.Kind]) throws -> Int {
        try read { db in
            try db.value("SELECT count(*) FROM notifications WHERE kind IN (\(SQLConnection.placeholders(kinds.count)))", kinds.map(\.rawValue), as: Int.self) ?? 0
        }
    }

    /// Every email token's stored hash (hex) and every queued message's text: where a secret
    /// must never be kept as sent.
    func storedTokenHashesAndMessages() throws -> [String] {
        try read { db in
            try db.values("SELECT tokenHash FROM emailTokens", as: Data.self).map { $0.map { String(format: "%02X", $0) }.joined() }
                + (try db.values("SELECT message FROM outbox", as: Data.self).map { String(decoding: $0, as: UTF8.self) })
        }
    }

    // MARK: - Rows no write makes

    /// Every member's address counted as verified, as if each had followed their link.
    func verifyEveryAddress() throws {
        try write { db in try db.execute("UPDATE mailSettings SET verifiedEmail = (SELECT email FROM users WHERE users.id = mailSettings.userID)") }
    }

    /// Stores a display name as given, past the checks a form makes: a stored row is outside data too.
    func storeDisplayNameUnchecked(_ name: String, username: String) throws {
        try write { db in try db.execute("UPDATE users SET displayName = ? WHERE username = ?", [name, username]) }
    }
}
