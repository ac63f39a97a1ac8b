import Foundation

/// Mail waiting to be sent, claimed by one sender at a time; digests and notices put into it.
extension MailStore {
    public func enqueueMail(_ mail: OutgoingMail, now: Date = Date()) throws {
        try database.write { db in try database.insert(db, mail, now: now) }
    }

    /// Up to `limit` queued messages that are due, claimed by `owner` (a process of a machine) for `claim`
    /// seconds so that a second sender (two server processes during a hand-over) does not send
    /// them too. Messages past their use are marked failed on the way.
    public func claimDueMail(limit: Int = 20, for claim: TimeInterval = 300, owner: Int64, now: Date = Date()) throws -> [OutboxMail] {
        try database.write { db in
            try db.execute("""
                UPDATE outbox SET status = 'failed', finishedAt = ?, message = ?, lastError = 'expired before it could be sent'
                WHERE status = 'queued' AND expiresAt <= ?
                """, [now, Data(), now])
            let mails = try db.fetchAll("""
                SELECT \(OutboxMail.selection.bare) FROM outbox WHERE status = 'queued' AND nextAttemptAt <= ? AND (claimedUntil IS NULL OR claimedUntil <= ?)
                ORDER BY nextAttemptAt, id LIMIT ?
                """, [now, now, limit], OutboxMail.init(row:))
            for mail in mails {
                try db.execute("UPDATE outbox SET claimedUntil = ?, claimedBy = ? WHERE id = ?", [now.addingTimeInterval(claim), owner, mail.id])
            }
            return mails
        }
    }

    /// Claims held by processes that are gone (killed while sending) are let go at once, so
    /// that a restart does not wait for them to run out.
    public func releaseClaims(ofDeadProcesses isAlive: (Int64) -> Bool, now: Date = Date()) throws {
        let owners = try database.read { db in
            try db.values("SELECT DISTINCT claimedBy FROM outbox WHERE status = 'queued' AND claimedUntil > ? AND claimedBy IS NOT NULL", [now], as: Int64.self)
        }
        for owner in owners where !isAlive(owner) {
            try database.write { db in
                try db.execute("UPDATE outbox SET claimedUntil = NULL, claimedBy = NULL WHERE claimedBy = ? AND status = 'queued'", [owner])
            }
        }
    }

    /// The server took it: the message (which may hold a one-time link) is erased.
    public func markMailSent(id: Int64, now: Date = Date()) throws {
        try database.write { db in
            try db.execute("""
                UPDATE outbox SET status = 'sent', message = ?, finishedAt = ?, claimedUntil = NULL, claimedBy = NULL, attempts = attempts + 1 WHERE id = ?
                """, [Data(), now, id])
        }
    }

    /// Not this time: try again at `next`.
    public func markMailDeferred(id: Int64, error: String, next: Date) throws {
        try database.write { db in
            try db.execute("UPDATE outbox SET attempts = attempts + 1, nextAttemptAt = ?, lastError = ?, claimedUntil = NULL, claimedBy = NULL WHERE id = ?", [next, String(error.prefix(500)), id])
        }
    }

    /// Refused for good (or given up on): kept for the record, without its content.
    public func markMailFailed(id: Int64, error: String, now: Date = Date()) throws {
        try database.write { db in
            try db.execute("""
                UPDATE outbox SET status = 'failed', attempts = attempts + 1, lastError = ?, message = ?, finishedAt = ?, claimedUntil = NULL, claimedBy = NULL
                WHERE id = ?
                """, [String(error.prefix(500)), Data(), now, id])
        }
    }

    public func outboxCounts() throws -> OutboxCounts {
        try database.read { db in
            var counts = OutboxCounts()
            for (status, count) in try db.fetchAll("SELECT status, count(*) AS count FROM outbox GROUP BY status", [], {
                (try $0.decode("status", as: String.self), try $0.decode("count", as: Int.self))
            }) {
                switch status {
                case "queued": counts.queued = count
                case "sent": counts.sent = count
                default: counts.failed = count
                }
            }
            return counts
        }
    }

    /// The newest messages for one account, for the admin's user page and the tests.
    public func outbox(userID: Int64, limit: Int = 20) throws -> [OutboxMail] {
        try database.read { db in
            try db.fetchAll("SELECT \(OutboxMail.selection.bare) FROM outbox WHERE userID = ? ORDER BY id DESC LIMIT ?", [userID, limit], OutboxMail.init(row:))
        }
    }

    /// Forgets finished messages older than `before`.
    public func pruneOutbox(before: Date) throws {
        try database.write { db in
            try db.execute("DELETE FROM outbox WHERE status != 'queued' AND finishedAt < ?", [before])
            try db.execute("DELETE FROM emailTokens WHERE expiresAt < ?", [before])
        }
    }

    // MARK: - Digests and notices

    /// Members whose digest is due at `now`: a verified address, a period passed since the
    /// last one, and unread notifications newer than it, or messages waiting that came since.
    public func membersDueForDigest(now: Date = Date(), limit: Int = 100) throws -> [(User, MailSettings)] {
        try database.read { db in
            try db.fetchAll("""
                SELECT \(User.selection.qualified), \(MailSettings.selection.qualified) FROM mailSettings JOIN users ON users.id = mailSettings.userID
                WHERE mailSettings.digest != 'off' AND mailSettings.verifiedEmail = users.email
                  AND ((mailSettings.digest = 'daily' AND mailSettings.lastDigestAt <= ?1) OR (mailSettings.digest = 'weekly' AND mailSettings.lastDigestAt <= ?2))
                  AND (EXISTS (SELECT 1 FROM notifications WHERE notifications.userID = users.id AND readAt IS NULL
                               AND notifications.createdAt > mailSettings.lastDigestAt)
                       -- or messages that came since, waiting in a room not muted
                       OR EXISTS (SELECT 1 FROM roomMembers WHERE roomMembers.userID = users.id AND unread > 0 AND state = 'joined'
                                  AND lastMessageAt > mailSettings.lastDigestAt AND (mutedUntil IS NULL OR mutedUntil <= ?4)))
                ORDER BY users.id LIMIT ?3
                """, [now.addingTimeInterval(-86_400), now.addingTimeInterval(-7 * 86_400), limit, now], AppDatabase.memberWithSettings)
        }
    }

    /// Unread notifications of a member newer than `since`, newest first.
    public func unreadNotifications(userID: Int64, since: Date, limit: Int = 50) throws -> [NotificationItem] {
        try database.read { db in
            let notifications = try db.records(Notification.self, "SELECT \(Notification.selection.bare) FROM notifications WHERE userID = ? AND readAt IS NULL AND createdAt > ? ORDER BY id DESC LIMIT ?", [userID, since, limit])
            return try database.items(db, notifications)
        }
    }

    /// Puts the digest in the outbox and moves the member's digest time on, together.
    public func enqueueDigest(_ mail: OutgoingMail, userID: Int64, now: Date = Date()) throws {
        try database.write { db in
            try database.insert(db, mail, now: now)
            try db.execute("UPDATE mailSettings SET lastDigestAt = ? WHERE userID = ?", [now, userID])
        }
    }

    /// Notifications of `kinds` after the notice cursor, with their recipients and settings.
    /// `through` is the newest notification considered, nil when none is new.
    public func pendingNotices(kinds: [Notification.Kind], limit: Int = 100) throws -> (items: [(NotificationItem, User, MailSettings)], through: Int64?) {
        try database.read { db in
            let cursor = try db.value("SELECT position FROM mailCursors WHERE name = 'notices'", as: Int64.self) ?? 0
            let notifications = try db.records(Notification.self, "SELECT \(Notification.selection.bare) FROM notifications WHERE id > ? ORDER BY id LIMIT ?", [cursor, limit])
            let through = notifications.last?.id
            let wanted = notifications.filter { kinds.contains($0.kind) }
            var result: [(NotificationItem, User, MailSettings)] = []
            for item in try database.items(db, wanted) {
                guard let (user, settings) = try db.fetchOne("""
                    SELECT \(User.selection.qualified), \(MailSettings.selection.qualified) FROM users JOIN mailSettings ON mailSettings.userID = users.id WHERE users.id = ?
                    """, [item.notification.userID], AppDatabase.memberWithSettings)
                else { continue }
                result.append((item, user, settings))
            }
            return (result, through)
        }
    }

    /// Notifications not yet considered for immediate mail.
    public func noticeBacklog() throws -> Int {
        try database.read { db in
            try db.value("SELECT count(*) FROM notifications WHERE id > (SELECT position FROM mailCursors WHERE name = 'notices')", as: Int.self) ?? 0
        }
    }

    /// Puts the notices in the outbox and moves the cursor past what was considered, together.
    public func enqueueNotices(_ mails: [OutgoingMail], through notificationID: Int64, now: Date = Date()) throws {
        try database.write { db in
            for mail in mails { try database.insert(db, mail, now: now) }
            try db.execute("UPDATE mailCursors SET position = \(db.greatest("position", "?")) WHERE name = 'notices'", [notificationID])
        }
    }
}

extension AppDatabase {
    func insert(_ db: SQLConnection, _ mail: OutgoingMail, now: Date) throws {
        try db.execute("INSERT INTO outbox (userID, kind, sender, recipient, message, createdAt, expiresAt, nextAttemptAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       [mail.userID, mail.kind.rawValue, mail.sender, mail.recipient, Data(mail.message), now, mail.expiresAt, now])
    }
}
