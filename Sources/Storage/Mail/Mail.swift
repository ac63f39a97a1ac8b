import Foundation

/// What a member wants by mail, and whether their address is proved theirs.
public struct MailSettings: Sendable, Equatable, SQLColumns {
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
        case digest, notices, reminders
    }

    public var userID: Int64
    /// The address the member proved by following a link; the current one is verified when
    /// they are the same.
    public var verifiedEmail: String?
    public var digest: Digest
    /// Mail at once when a meetup they go to moves, they leave the waitlist, or a lottery is drawn.
    public var meetupNotices: Bool
    /// Mail the day before and an hour before a meetup they go to.
    public var meetupReminders: Bool
    /// Names the member in unsubscribe links (no sign-in needed).
    public var unsubscribeToken: String
    public var lastDigestAt: Date

    public func isVerified(_ email: String) -> Bool {
        verifiedEmail.map { $0.lowercased() == email.lowercased() } ?? false
    }

    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    enum Columns: Int, SQLColumn {
        case userID, verifiedEmail, digest, meetupNotices, unsubscribeToken, lastDigestAt, meetupReminders
    }

    static let selection = SQLSelection(Columns.self, table: "mailSettings")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        userID = try column(.userID)
        verifiedEmail = try column(.verifiedEmail)
        digest = try column(.digest)
        meetupNotices = try column(.meetupNotices)
        unsubscribeToken = try column(.unsubscribeToken)
        lastDigestAt = try column(.lastDigestAt)
        meetupReminders = try column(.meetupReminders)
    }

    /// Whether the member wants mail about `kind` (one of the kinds mailed at once).
    public func wantsMail(about kind: Notification.Kind) -> Bool {
        kind.isReminder ? meetupReminders : meetupNotices
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
public struct OutboxMail: Sendable, Equatable, SQLColumns {
    public enum Kind: String, Sendable {
        case reset, verify, emailChanged, digest, notice, export
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

    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    enum Columns: Int, SQLColumn {
        case id, userID, kind, sender, recipient, message, createdAt, expiresAt, attempts, nextAttemptAt, claimedUntil, claimedBy, lastError, status, finishedAt
    }

    static let selection = SQLSelection(Columns.self, table: "outbox")

    init(row: some PositionalRow) throws {
        let column = try row.columns(of: Self.self)
        id = try column(.id)
        userID = try column(.userID)
        kind = try column(.kind)
        sender = try column(.sender)
        recipient = try column(.recipient)
        message = try column(.message)
        createdAt = try column(.createdAt)
        expiresAt = try column(.expiresAt)
        attempts = try column(.attempts)
        nextAttemptAt = try column(.nextAttemptAt)
        lastError = try column(.lastError)
        status = try column(.status)
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
