import Foundation

/// A member's second factor as stored: the authenticator app's secret and whether a first code
/// confirmed it.
public struct TwoFactorSecret: Sendable, Equatable {
    /// Base32, as the app took it.
    public var secret: String
    public var confirmedAt: Date?
    /// The time step of the last code used: a code works once.
    public var lastStep: Int64

    public var isOn: Bool { confirmedAt != nil }
}

extension AccountStore {
    public func twoFactor(userID: Int64) throws -> TwoFactorSecret? {
        try database.readRows { db in
            try db.fetchAll("SELECT secret, confirmedAt, lastStep FROM twoFactor WHERE userID = ?", [userID]) { row in
                TwoFactorSecret(secret: try row.decode("secret"), confirmedAt: try row.decode("confirmedAt"), lastStep: try row.decode("lastStep"))
            }.first
        }
    }

    /// Starts setting up codes with a new secret (a setup not finished is replaced); refused
    /// while codes are on.
    public func beginTwoFactor(userID: Int64, secret: String) throws {
        try database.write { db in
            guard try db.value("SELECT count(*) FROM twoFactor WHERE userID = ? AND confirmedAt IS NOT NULL", [userID], as: Int.self) == 0 else {
                throw StorageError.duplicate
            }
            try db.execute("DELETE FROM twoFactor WHERE userID = ?", [userID])
            try db.execute("INSERT INTO twoFactor (userID, secret) VALUES (?, ?)", [userID, secret])
        }
    }

    /// Turns codes on once the app's first code (of time step `step`) matched: with the
    /// recovery codes' hashes, and this session counted as having given one.
    public func confirmTwoFactor(userID: Int64, step: Int64, recoveryHashes: [Data], sessionID: Int64, now: Date = Date()) throws {
        try database.write { db in
            guard try db.execute("UPDATE twoFactor SET confirmedAt = ?, lastStep = ? WHERE userID = ? AND confirmedAt IS NULL",
                                 [now, step, userID]) == 1 else { throw StorageError.notFound }
            try db.execute("DELETE FROM recoveryCodes WHERE userID = ?", [userID])
            for hash in recoveryHashes { try db.execute("INSERT INTO recoveryCodes (userID, codeHash) VALUES (?, ?)", [userID, hash]) }
            try markSecondFactor(db, sessionID: sessionID, userID: userID, now: now)
        }
    }

    /// Takes a code of time step `step` for this session: only a step later than the last
    /// one used, so that a code seen over a shoulder or replayed is refused.
    public func useCode(userID: Int64, step: Int64, sessionID: Int64, now: Date = Date()) throws -> Bool {
        try database.write { db in
            guard try db.execute("UPDATE twoFactor SET lastStep = ? WHERE userID = ? AND confirmedAt IS NOT NULL AND lastStep < ?",
                                 [step, userID, step]) == 1 else { return false }
            try markSecondFactor(db, sessionID: sessionID, userID: userID, now: now)
            return true
        }
    }

    /// Takes a recovery code (by its hash) for this session, once.
    public func useRecoveryCode(userID: Int64, hash: Data, sessionID: Int64, now: Date = Date()) throws -> Bool {
        try database.write { db in
            guard try db.execute("UPDATE recoveryCodes SET usedAt = ? WHERE userID = ? AND codeHash = ? AND usedAt IS NULL",
                                 [now, userID, hash]) == 1 else { return false }
            try markSecondFactor(db, sessionID: sessionID, userID: userID, now: now)
            return true
        }
    }

    /// Recovery codes not used yet.
    public func recoveryCodesLeft(userID: Int64) throws -> Int {
        try database.readRows { db in
            try db.value("SELECT count(*) FROM recoveryCodes WHERE userID = ? AND usedAt IS NULL", [userID], as: Int.self) ?? 0
        }
    }

    /// Turns codes off: the secret and the recovery codes go.
    public func disableTwoFactor(userID: Int64) throws {
        try database.write { db in
            try db.execute("DELETE FROM twoFactor WHERE userID = ?", [userID])
            try db.execute("DELETE FROM recoveryCodes WHERE userID = ?", [userID])
            db.changed(.member(userID: userID))
        }
    }

    func markSecondFactor(_ db: SQLConnection, sessionID: Int64, userID: Int64, now: Date) throws {
        try db.execute("UPDATE sessions SET secondFactorAt = ? WHERE id = ? AND userID = ?", [now, sessionID, userID])
        // Kept sessions are read again: staff pages see the code at once.
        db.changed(.member(userID: userID))
    }
}
