import Foundation

/// What a member wants by mail, and whether their address is proved theirs.
public struct MailSettings: Sendable, Equatable {
    public enum Digest: String, Sendable, CaseIterable {
        case off, daily, weekly

        public var period: TimeInterval? {
            switch self {
            case .off: nil
            case .daily: 86_400
            case .weekly: 7 * 86_400
            }
        }
    }

    /// The lists a message's unsubscribe link turns off.
    public enum List: String, Sendable {
        case digest, notices
    }

    public var userID: Int64
    /// The address the member proved by following a link; the current one is verified when
    /// they are the same.
    public var verifiedEmail: String?
    public var digest: Digest
    /// Mail at once when a meetup they go to moves, they leave the waitlist, or a lottery is drawn.
    public var meetupNotices: Bool
    /// Names the member in unsubscribe links (no sign-in needed).
    public var unsubscribeToken: String
    public var lastDigestAt: Date

    public func isVerified(_ email: String) -> Bool {
        verifiedEmail.map { $0.lowercased() == email.lowercased() } ?? false
    }

    static let columns = ["userID", "verifiedEmail", "digest", "meetupNotices", "unsubscribeToken", "lastDigestAt"]

    init(row: some PositionalRow, startingAt offset: Int) throws {
        try row.checkColumns(Self.columns, from: offset)
        userID = try row.decode(atIndex: offset)
        verifiedEmail = try row.decode(atIndex: offset + 1)
        digest = try row.decodeRawValue(atIndex: offset + 2)
        meetupNotices = try row.decode(atIndex: offset + 3)
        unsubscribeToken = try row.decode(atIndex: offset + 4)
        lastDigestAt = try row.date(atIndex: offset + 5)
    }
}

/// A single-use token sent by mail; only its SHA-256 is stored.
public enum EmailTokenPurpose: String, Sendable {
    /// Sets a new password; valid one hour.
    case reset
    /// Proves the address; valid a week.
    case verify
}

/// A message waiting in (or done with) the outbox.
public struct OutboxMail: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case reset, verify, emailChanged, digest, notice
    }

    public enum Status: String, Sendable {
        case queued, sent, failed
    }

    public var id: Int64
    public var userID: Int64?
    public var kind: Kind
    public var sender: String
    public var recipient: String
    /// The whole message as SMTP's DATA sends it (before dot-stuffing); emptied once sent.
    public var message: Data
    public var createdAt: Date
    /// Not worth sending after this (a reset link that has expired).
    public var expiresAt: Date
    public var attempts: Int
    public var nextAttemptAt: Date
    public var lastError: String
    public var status: Status

    static let columns = ["id", "userID", "kind", "sender", "recipient", "message", "createdAt", "expiresAt", "attempts",
                          "nextAttemptAt", "claimedUntil", "claimedBy", "lastError", "status", "finishedAt"]

    init(row: some PositionalRow) throws {
        try row.checkColumns(Self.columns)
        id = try row.decode(atIndex: 0)
        userID = try row.decode(atIndex: 1)
        kind = try row.decodeRawValue(atIndex: 2)
        sender = try row.decode(atIndex: 3)
        recipient = try row.decode(atIndex: 4)
        message = try row.decode(atIndex: 5)
        createdAt = try row.date(atIndex: 6)
        expiresAt = try row.date(atIndex: 7)
        attempts = try row.decode(atIndex: 8)
        nextAttemptAt = try row.date(atIndex: 9)
        lastError = try row.decode(atIndex: 12)
        status = try row.decodeRawValue(atIndex: 13)
    }
}

/// A message to put in the outbox.
public struct OutgoingMail: Sendable {
    public var userID: Int64?
    public var kind: OutboxMail.Kind
    public var sender: String
    public var recipient: String
    public var message: [UInt8]
    public var expiresAt: Date

    public init(userID: Int64?, kind: OutboxMail.Kind, sender: String, recipient: String, message: [UInt8], expiresAt: Date) {
        self.userID = userID
        self.kind = kind
        self.sender = sender
        self.recipient = recipient
        self.message = message
        self.expiresAt = expiresAt
    }
}

/// How many messages are in each state, for the admin page and metrics.
public struct OutboxCounts: Sendable, Equatable {
    public var queued = 0
    public var sent = 0
    public var failed = 0
}

/// Why a token from a link was not taken.
public enum EmailTokenError: Error, Sendable, Equatable {
    /// No such token, or already used.
    case invalid
    case expired
    /// A verification link for an address the account no longer has.
    case addressChanged
}

extension AppDatabase {
    // MARK: - Settings

    public func mailSettings(userID: Int64) throws -> MailSettings {
        try read { db in
            guard let settings = try db.fetchOne("SELECT * FROM mailSettings WHERE userID = ?", [userID], { try MailSettings(row: $0, startingAt: 0) })
            else { throw StorageError.notFound }
            return settings
        }
    }

    public func updateMailSettings(userID: Int64, digest: MailSettings.Digest, meetupNotices: Bool) throws {
        try write { db in
            try db.execute("UPDATE mailSettings SET digest = ?, meetupNotices = ? WHERE userID = ?", [digest.rawValue, meetupNotices, userID])
        }
    }

    /// The member an unsubscribe link names, with their settings.
    public func mailSettings(unsubscribeToken token: String) throws -> (User, MailSettings)? {
        try read { db in
            guard token.utf8.count == 48 else { return nil }
            return try db.fetchOne("SELECT users.*, mailSettings.* FROM mailSettings JOIN users ON users.id = mailSettings.userID WHERE unsubscribeToken = ?",
                                   [token], Self.memberWithSettings)
        }
    }

    /// Turns a list off for the member the token names; false when it names nobody.
    public func unsubscribe(token: String, from list: MailSettings.List) throws -> Bool {
        try write { db in
            let change = list == .digest ? "digest = 'off'" : "meetupNotices = FALSE"
            return try db.execute("UPDATE mailSettings SET \(change) WHERE unsubscribeToken = ?", [token]) > 0
        }
    }

    /// A row of `users.*, mailSettings.*`.
    private static func memberWithSettings(_ row: SQLRow) throws -> (User, MailSettings) {
        (try User(row: row, startingAt: 0), try MailSettings(row: row, startingAt: User.columns.count))
    }

    // MARK: - Tokens

    /// Stores a token's hash; `email` is the address it was sent to.
    public func createEmailToken(userID: Int64, purpose: EmailTokenPurpose, email: String, tokenHash: Data,
                                 validFor lifetime: TimeInterval, now: Date = Date()) throws {
        try write { db in
            try db.execute("INSERT INTO emailTokens (tokenHash, userID, purpose, email, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?, ?)",
                           [tokenHash, userID, purpose.rawValue, email, now, now.addingTimeInterval(lifetime)])
        }
    }

    /// Tokens of `purpose` made for the account since `since`: its rate limit, which a
    /// restart does not reset.
    public func emailTokenCount(userID: Int64, purpose: EmailTokenPurpose, since: Date) throws -> Int {
        try read { db in
            try db.value("SELECT count(*) FROM emailTokens WHERE userID = ? AND purpose = ? AND createdAt > ?", [userID, purpose.rawValue, since], as: Int.self) ?? 0
        }
    }

    /// The account a reset link is for, if the link can still be used.
    public func resetTokenUser(tokenHash: Data, now: Date = Date()) throws -> Result<User, EmailTokenError> {
        try read { db in try usableToken(db, tokenHash, purpose: .reset, now: now).map(\.user) }
    }

    /// Sets the new password, uses the token up and ends every session of the account (and
    /// every other reset link), in one transaction.
    public func resetPassword(tokenHash: Data, passwordHash: String, now: Date = Date()) throws -> Result<User, EmailTokenError> {
        try write { db in
            let found = try usableToken(db, tokenHash, purpose: .reset, now: now)
            guard case .success(let (user, _)) = found, let userID = user.id else { return found.map(\.user) }
            try db.execute("UPDATE users SET passwordHash = ? WHERE id = ?", [passwordHash, userID])
            try db.execute("DELETE FROM sessions WHERE userID = ?", [userID])
            db.changed(.member(userID: userID))
            try db.execute("DELETE FROM emailTokens WHERE userID = ? AND purpose = 'reset' AND tokenHash != ?", [userID, tokenHash])
            try db.execute("UPDATE emailTokens SET usedAt = ? WHERE tokenHash = ?", [now, tokenHash])
            return .success(user)
        }
    }

    /// Marks the address the link was sent to as the member's, if it still is.
    public func verifyEmail(tokenHash: Data, now: Date = Date()) throws -> Result<User, EmailTokenError> {
        try write { db in
            let found = try usableToken(db, tokenHash, purpose: .verify, now: now)
            guard case .success(let (user, email)) = found, let userID = user.id else { return found.map(\.user) }
            guard email.lowercased() == user.email.lowercased() else { return .failure(.addressChanged) }
            try db.execute("UPDATE mailSettings SET verifiedEmail = ? WHERE userID = ?", [email, userID])
            try db.execute("UPDATE emailTokens SET usedAt = ? WHERE tokenHash = ?", [now, tokenHash])
            return .success(user)
        }
    }

    private func usableToken(_ db: SQLConnection, _ tokenHash: Data, purpose: EmailTokenPurpose, now: Date) throws -> Result<(user: User, email: String), EmailTokenError> {
        let token = try db.fetchOne("""
            SELECT users.*, emailTokens.email, emailTokens.expiresAt, emailTokens.usedAt FROM emailTokens JOIN users ON users.id = emailTokens.userID
            WHERE tokenHash = ? AND purpose = ?
            """, [tokenHash, purpose.rawValue]) { row in
            let extra = User.columns.count
            return (user: try User(row: row, startingAt: 0), email: try row.decode(String.self, atIndex: extra),
                    expiresAt: try row.date(atIndex: extra + 1), usedAt: try row.optionalDate(atIndex: extra + 2))
        }
        guard let token, token.usedAt == nil else { return .failure(.invalid) }
        if token.expiresAt <= now { return .failure(.expired) }
        return .success((token.user, token.email))
    }

    /// A new address for the account: unverified until its link is followed.
    public func changeEmail(userID: Int64, to email: String) throws {
        try write { db in
            if try db.value("SELECT count(*) FROM users WHERE email = ? AND id != ?", [email, userID], as: Int.self) ?? 0 > 0 {
                throw StorageError.emailTaken
            }
            try db.execute("UPDATE users SET email = ? WHERE id = ?", [email, userID])
            // Links sent to the old address stop working.
            try db.execute("DELETE FROM emailTokens WHERE userID = ? AND usedAt IS NULL", [userID])
        }
    }

    // MARK: - Outbox

    public func enqueueMail(_ mail: OutgoingMail, now: Date = Date()) throws {
        try write { db in try insert(db, mail, now: now) }
    }

    private func insert(_ db: SQLConnection, _ mail: OutgoingMail, now: Date) throws {
        try db.execute("INSERT INTO outbox (userID, kind, sender, recipient, message, createdAt, expiresAt, nextAttemptAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       [mail.userID, mail.kind.rawValue, mail.sender, mail.recipient, Data(mail.message), now, mail.expiresAt, now])
    }

    /// Up to `limit` queued messages that are due, claimed by `owner` (a process of a machine) for `claim`
    /// seconds so that a second sender (two server processes during a hand-over) does not send
    /// them too. Messages past their use are marked failed on the way.
    public func claimDueMail(limit: Int = 20, for claim: TimeInterval = 300, owner: Int64, now: Date = Date()) throws -> [OutboxMail] {
        try write { db in
            try db.execute("""
                UPDATE outbox SET status = 'failed', finishedAt = ?, message = ?, lastError = 'expired before it could be sent'
                WHERE status = 'queued' AND expiresAt <= ?
                """, [now, Data(), now])
            let mails = try db.fetchAll("""
                SELECT * FROM outbox WHERE status = 'queued' AND nextAttemptAt <= ? AND (claimedUntil IS NULL OR claimedUntil <= ?)
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
        let owners = try read { db in
            try db.values("SELECT DISTINCT claimedBy FROM outbox WHERE status = 'queued' AND claimedUntil > ? AND claimedBy IS NOT NULL", [now], as: Int64.self)
        }
        for owner in owners where !isAlive(owner) {
            try write { db in
                try db.execute("UPDATE outbox SET claimedUntil = NULL, claimedBy = NULL WHERE claimedBy = ? AND status = 'queued'", [owner])
            }
        }
    }

    /// The server took it: the message (which may hold a one-time link) is erased.
    public func markMailSent(id: Int64, now: Date = Date()) throws {
        try write { db in
            try db.execute("""
                UPDATE outbox SET status = 'sent', message = ?, finishedAt = ?, claimedUntil = NULL, claimedBy = NULL, attempts = attempts + 1 WHERE id = ?
                """, [Data(), now, id])
        }
    }

    /// Not this time: try again at `next`.
    public func markMailDeferred(id: Int64, error: String, next: Date) throws {
        try write { db in
            try db.execute("UPDATE outbox SET attempts = attempts + 1, nextAttemptAt = ?, lastError = ?, claimedUntil = NULL, claimedBy = NULL WHERE id = ?", [next, String(error.prefix(500)), id])
        }
    }

    /// Refused for good (or given up on): kept for the record, without its content.
    public func markMailFailed(id: Int64, error: String, now: Date = Date()) throws {
        try write { db in
            try db.execute("""
                UPDATE outbox SET status = 'failed', attempts = attempts + 1, lastError = ?, message = ?, finishedAt = ?, claimedUntil = NULL, claimedBy = NULL
                WHERE id = ?
                """, [String(error.prefix(500)), Data(), now, id])
        }
    }

    public func outboxCounts() throws -> OutboxCounts {
        try read { db in
            var counts = OutboxCounts()
            for (status, count) in try db.fetchAll("SELECT status, count(*) FROM outbox GROUP BY status", [], {
                (try $0.decode(String.self, atIndex: 0), try $0.decode(Int.self, atIndex: 1))
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
        try read { db in
            try db.fetchAll("SELECT * FROM outbox WHERE userID = ? ORDER BY id DESC LIMIT ?", [userID, limit], OutboxMail.init(row:))
        }
    }

    /// Forgets finished messages older than `before`.
    public func pruneOutbox(before: Date) throws {
        try write { db in
            try db.execute("DELETE FROM outbox WHERE status != 'queued' AND finishedAt < ?", [before])
            try db.execute("DELETE FROM emailTokens WHERE expiresAt < ?", [before])
        }
    }

    // MARK: - Digests and notices

    /// Members whose digest is due at `now`: a verified address, a period passed since the
    /// last one, and unread notifications newer than it.
    public func membersDueForDigest(now: Date = Date(), limit: Int = 100) throws -> [(User, MailSettings)] {
        try read { db in
            try db.fetchAll("""
                SELECT users.*, mailSettings.* FROM mailSettings JOIN users ON users.id = mailSettings.userID
                WHERE mailSettings.digest != 'off' AND mailSettings.verifiedEmail = users.email
                  AND ((mailSettings.digest = 'daily' AND mailSettings.lastDigestAt <= ?) OR (mailSettings.digest = 'weekly' AND mailSettings.lastDigestAt <= ?))
                  AND EXISTS (SELECT 1 FROM notifications WHERE notifications.userID = users.id AND readAt IS NULL
                              AND notifications.createdAt > mailSettings.lastDigestAt)
                ORDER BY users.id LIMIT ?
                """, [now.addingTimeInterval(-86_400), now.addingTimeInterval(-7 * 86_400), limit], Self.memberWithSettings)
        }
    }

    /// Unread notifications of a member newer than `since`, newest first.
    public func unreadNotifications(userID: Int64, since: Date, limit: Int = 50) throws -> [NotificationItem] {
        try read { db in
            let notifications = try db.records(Notification.self, "SELECT * FROM notifications WHERE userID = ? AND readAt IS NULL AND createdAt > ? ORDER BY id DESC LIMIT ?", [userID, since, limit])
            return try items(db, notifications)
        }
    }

    /// Puts the digest in the outbox and moves the member's digest time on, together.
    public func enqueueDigest(_ mail: OutgoingMail, userID: Int64, now: Date = Date()) throws {
        try write { db in
            try insert(db, mail, now: now)
            try db.execute("UPDATE mailSettings SET lastDigestAt = ? WHERE userID = ?", [now, userID])
        }
    }

    /// Notifications of `kinds` after the notice cursor, with their recipients and settings.
    /// `through` is the newest notification considered, nil when none is new.
    public func pendingNotices(kinds: [Notification.Kind], limit: Int = 100) throws -> (items: [(NotificationItem, User, MailSettings)], through: Int64?) {
        try read { db in
            let cursor = try db.value("SELECT position FROM mailCursors WHERE name = 'notices'", as: Int64.self) ?? 0
            let notifications = try db.records(Notification.self, "SELECT * FROM notifications WHERE id > ? ORDER BY id LIMIT ?", [cursor, limit])
            let through = notifications.last?.id
            let wanted = notifications.filter { kinds.contains($0.kind) }
            var result: [(NotificationItem, User, MailSettings)] = []
            for item in try items(db, wanted) {
                guard let (user, settings) = try db.fetchOne("""
                    SELECT users.*, mailSettings.* FROM users JOIN mailSettings ON mailSettings.userID = users.id WHERE users.id = ?
                    """, [item.notification.userID], Self.memberWithSettings)
                else { continue }
                result.append((item, user, settings))
            }
            return (result, through)
        }
    }

    /// Notifications not yet considered for immediate mail.
    public func noticeBacklog() throws -> Int {
        try read { db in
            try db.value("SELECT count(*) FROM notifications WHERE id > (SELECT position FROM mailCursors WHERE name = 'notices')", as: Int.self) ?? 0
        }
    }

    /// Puts the notices in the outbox and moves the cursor past what was considered, together.
    public func enqueueNotices(_ mails: [OutgoingMail], through notificationID: Int64, now: Date = Date()) throws {
        try write { db in
            for mail in mails { try insert(db, mail, now: now) }
            let greatest = db.engine == .postgres ? "greatest" : "max"
            try db.execute("UPDATE mailCursors SET position = \(greatest)(position, ?) WHERE name = 'notices'", [notificationID])
        }
    }
}
