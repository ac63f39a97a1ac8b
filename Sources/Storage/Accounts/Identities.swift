import Foundation

/// A sign-in sent to a provider and not yet back: what the browser must bring back (`state`)
/// and what only the server knows (the nonce, the PKCE verifier).
public struct SignInAttempt: Sendable, Equatable {
    public let state: String
    public let provider: String
    public let nonce: String
    public let verifier: String
    /// Where to go once signed in.
    public let next: String
    /// Set when a signed-in member is linking the provider to their account.
    public let linkUserID: Int64?

    public init(state: String, provider: String, nonce: String, verifier: String, next: String, linkUserID: Int64?) {
        self.state = state
        self.provider = provider
        self.nonce = nonce
        self.verifier = verifier
        self.next = next
        self.linkUserID = linkUserID
    }
}

/// A provider account with no member yet: kept while the newcomer picks a username.
/// A provider's grant to Moim that can be revoked at the provider: its refresh token.
public struct ProviderGrant: Sendable, Equatable {
    public let provider: String
    public let refreshToken: String
}

public struct PendingIdentity: Sendable, Equatable {
    public let provider: String
    public let subject: String
    /// Only an address the provider marked verified.
    public let email: String?
    public let name: String?
    /// Where they were going when they chose to sign in.
    public let next: String
    /// The provider's refresh token, where it can be revoked.
    public let refreshToken: String?

    public init(provider: String, subject: String, email: String?, name: String?, next: String, refreshToken: String? = nil) {
        self.provider = provider
        self.subject = subject
        self.email = email
        self.name = name
        self.next = next
        self.refreshToken = refreshToken
    }
}

extension AccountStore {
    public func startSignIn(_ attempt: SignInAttempt, now: Date = Date()) throws {
        try database.write { db in
            try db.execute("DELETE FROM signInAttempts WHERE createdAt < ?", [now.addingTimeInterval(-AppDatabase.signInLifetime)])
            try db.execute("""
                INSERT INTO signInAttempts (state, provider, nonce, verifier, next, linkUserID, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [attempt.state, attempt.provider, attempt.nonce, attempt.verifier, attempt.next, attempt.linkUserID, now])
        }
    }

    /// The attempt `state` names, taken out so it can be used once; nil when unknown, used,
    /// expired or for another provider.
    public func takeSignIn(state: String, provider: String, now: Date = Date()) throws -> SignInAttempt? {
        try database.write { db in
            try db.fetchOne("""
                DELETE FROM signInAttempts WHERE state = ? RETURNING provider, nonce, verifier, next, linkUserID, createdAt
                """, [state]) { row -> SignInAttempt? in
                guard try row.decode("provider") == provider, try row.decode("createdAt") > now.addingTimeInterval(-AppDatabase.signInLifetime) else { return nil }
                return SignInAttempt(state: state, provider: provider, nonce: try row.decode("nonce"), verifier: try row.decode("verifier"),
                                     next: try row.decode("next"), linkUserID: try row.decode("linkUserID"))
            } ?? nil
        }
    }

    /// The member this provider account signs in as.
    public func user(provider: String, subject: String) throws -> User? {
        try database.read { db in
            try db.record(User.self, "SELECT \(User.selection.qualified) FROM identities JOIN users ON users.id = identities.userID WHERE provider = ? AND subject = ?",
                          [provider, subject])
        }
    }

    /// Keeps the refresh token a provider gave at the member's latest sign-in (the one to revoke).
    public func keepRefreshToken(_ token: String, provider: String, subject: String) throws {
        try database.write { db in
            try db.execute("UPDATE identities SET refreshToken = ? WHERE provider = ? AND subject = ?", [token, provider, subject])
        }
    }

    /// The providers linked to `userID`.
    public func identities(userID: Int64) throws -> [String] {
        try database.read { db in try db.values("SELECT provider FROM identities WHERE userID = ? ORDER BY provider", [userID], as: String.self) }
    }

    /// Links a provider account to a member; `.duplicate` when it belongs to someone already,
    /// or the member has another account of that provider.
    public func link(provider: String, subject: String, userID: Int64, refreshToken: String? = nil, now: Date = Date()) throws {
        try database.write { db in
            let taken = try db.value("""
                SELECT EXISTS (SELECT 1 FROM identities WHERE (provider = ? AND subject = ?) OR (provider = ? AND userID = ?))
                """, [provider, subject, provider, userID], as: Bool.self) ?? true
            guard !taken else { throw StorageError.duplicate }
            try db.execute("INSERT INTO identities (provider, subject, userID, createdAt, refreshToken) VALUES (?, ?, ?, ?, ?)",
                           [provider, subject, userID, now, refreshToken])
        }
    }

    /// Unlinks a provider while another way in remains (a password or another provider);
    /// `.locked` otherwise. Returns the grant to revoke at the provider, if one was kept.
    @discardableResult
    public func unlink(provider: String, userID: Int64) throws -> ProviderGrant? {
        try database.write { db in
            let hasPassword = try db.value("SELECT passwordHash != '' FROM users WHERE id = ?", [userID], as: Bool.self) ?? false
            let others = try db.value("SELECT count(*) FROM identities WHERE userID = ? AND provider != ?", [userID, provider], as: Int.self) ?? 0
            guard hasPassword || others > 0 else { throw StorageError.locked }
            let token = try db.value("DELETE FROM identities WHERE userID = ? AND provider = ? RETURNING refreshToken", [userID, provider], as: String.self)
            return token.map { ProviderGrant(provider: provider, refreshToken: $0) }
        }
    }

    /// A newcomer's member and their provider account, together.
    public func createUser(_ user: User, identity: PendingIdentity, consent: Consent? = nil, now: Date = Date()) throws -> User {
        try database.write { db in
            if try db.value("SELECT EXISTS (SELECT 1 FROM identities WHERE provider = ? AND subject = ?)", [identity.provider, identity.subject]) == true {
                throw StorageError.duplicate
            }
            if try db.value("SELECT EXISTS (SELECT 1 FROM users WHERE username = ?)", [user.username]) == true { throw StorageError.usernameTaken }
            if try db.value("SELECT EXISTS (SELECT 1 FROM users WHERE email = ?)", [user.email]) == true { throw StorageError.emailTaken }
            let user = try insert(user, consent: consent, in: db)
            try db.execute("INSERT INTO identities (provider, subject, userID, createdAt, refreshToken) VALUES (?, ?, ?, ?, ?)",
                           [identity.provider, identity.subject, user.id, now, identity.refreshToken])
            return user
        }
    }

    public func keepPendingIdentity(_ identity: PendingIdentity, token: String, now: Date = Date()) throws {
        try database.write { db in
            try db.execute("DELETE FROM pendingIdentities WHERE createdAt < ?", [now.addingTimeInterval(-AppDatabase.signInLifetime)])
            try db.execute("""
                INSERT INTO pendingIdentities (token, provider, subject, email, name, next, createdAt, refreshToken) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, [token, identity.provider, identity.subject, identity.email, identity.name, identity.next, now, identity.refreshToken])
        }
    }

    public func pendingIdentity(token: String, now: Date = Date()) throws -> PendingIdentity? {
        try database.read { db in
            try db.fetchOne("SELECT provider, subject, email, name, next, refreshToken FROM pendingIdentities WHERE token = ? AND createdAt > ?",
                            [token, now.addingTimeInterval(-AppDatabase.signInLifetime)]) { row in
                PendingIdentity(provider: try row.decode("provider"), subject: try row.decode("subject"),
                                email: try row.decode("email"), name: try row.decode("name"), next: try row.decode("next"),
                                refreshToken: try row.decode("refreshToken"))
            }
        }
    }

    public func dropPendingIdentity(token: String) throws {
        try database.write { db in try db.execute("DELETE FROM pendingIdentities WHERE token = ?", [token]) }
    }
}

extension AppDatabase {
    /// How long a sign-in may take at the provider, and a newcomer to pick a username.
    public static let signInLifetime: TimeInterval = 600
}
