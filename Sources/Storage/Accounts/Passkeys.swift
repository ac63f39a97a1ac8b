import Foundation

/// A passkey a member registered: the credential's id, its COSE public key, and its count.
public struct Passkey: Sendable, Equatable {
    public var id: Int64
    public var userID: Int64
    public var credentialID: Data
    public var publicKey: Data
    public var signCount: Int64
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date?
}

extension AccountStore {
    /// How long a challenge given to a browser holds, in seconds (whole: the browser is told it
    /// in milliseconds).
    public static let passkeyChallengeSeconds = 300
    static let passkeyChallengeLifetime = TimeInterval(passkeyChallengeSeconds)

    private static let passkeyColumns = "id, userID, credentialID, publicKey, signCount, name, createdAt, lastUsedAt"

    private static func passkey(_ row: SQLRow) throws -> Passkey {
        Passkey(id: try row.decode("id"), userID: try row.decode("userID"), credentialID: try row.decode("credentialID"),
                publicKey: try row.decode("publicKey"), signCount: try row.decode("signCount"), name: try row.decode("name"),
                createdAt: try row.decode("createdAt"), lastUsedAt: try row.decode("lastUsedAt"))
    }

    public func passkeys(userID: Int64) throws -> [Passkey] {
        try database.readRows { db in
            try db.fetchAll("SELECT \(Self.passkeyColumns) FROM passkeys WHERE userID = ? ORDER BY createdAt", [userID], Self.passkey)
        }
    }

    public func passkey(credentialID: Data) throws -> Passkey? {
        try database.readRows { db in
            try db.fetchAll("SELECT \(Self.passkeyColumns) FROM passkeys WHERE credentialID = ?", [credentialID], Self.passkey).first
        }
    }

    /// Keeps a challenge given to a browser (by its hash), and forgets those past their time.
    public func keepPasskeyChallenge(hash: Data, purpose: String, userID: Int64?, now: Date = Date()) throws {
        try database.write { db in
            try db.execute("DELETE FROM passkeyChallenges WHERE createdAt < ?", [now.addingTimeInterval(-Self.passkeyChallengeLifetime)])
            try db.execute("INSERT INTO passkeyChallenges (challengeHash, purpose, userID, createdAt) VALUES (?, ?, ?, ?)", [hash, purpose, userID, now])
        }
    }

    /// Uses up a challenge: true once, if it was given for `purpose` (to `userID`, or to
    /// nobody in particular) within its five minutes.
    public func usePasskeyChallenge(hash: Data, purpose: String, userID: Int64?, now: Date = Date()) throws -> Bool {
        try database.write { db in
            try db.execute("""
                DELETE FROM passkeyChallenges WHERE challengeHash = ? AND purpose = ? AND createdAt >= ?
                  AND (userID IS NULL OR userID = ?)
                """, [hash, purpose, now.addingTimeInterval(-Self.passkeyChallengeLifetime), userID ?? -1]) == 1
        }
    }

    /// Stores a new passkey; `StorageError.duplicate` if that credential is registered already.
    public func addPasskey(userID: Int64, credentialID: Data, publicKey: Data, algorithm: Int64, signCount: Int64, name: String,
                           now: Date = Date()) throws {
        try database.write { db in
            if try db.value("SELECT EXISTS (SELECT 1 FROM passkeys WHERE credentialID = ?)", [credentialID]) == true { throw StorageError.duplicate }
            try db.execute("""
                INSERT INTO passkeys (userID, credentialID, publicKey, algorithm, signCount, name, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [userID, credentialID, publicKey, algorithm, signCount, name, now])
        }
    }

    /// Records a sign-in with the passkey: its new count (only ever forward) and, for a
    /// session, that it gave a second factor.
    public func usePasskey(id: Int64, signCount: Int64, sessionID: Int64?, now: Date = Date()) throws -> Bool {
        try database.write { db in
            guard let userID = try db.value("SELECT userID FROM passkeys WHERE id = ?", [id], as: Int64.self),
                  try db.execute("UPDATE passkeys SET signCount = ?, lastUsedAt = ? WHERE id = ? AND (signCount < ? OR signCount = 0)",
                                 [signCount, now, id, signCount]) == 1 else { return false }
            if let sessionID { try markSecondFactor(db, sessionID: sessionID, userID: userID, now: now) }
            return true
        }
    }

    public func removePasskey(id: Int64, userID: Int64) throws -> Bool {
        try database.write { db in try db.execute("DELETE FROM passkeys WHERE id = ? AND userID = ?", [id, userID]) == 1 }
    }
}
