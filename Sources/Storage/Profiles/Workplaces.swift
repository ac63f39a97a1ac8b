import Foundation

/// A code sent to a work address and not yet typed back.
public struct WorkplaceCheck: Sendable, Equatable {
    public var domain: String
    public var expiresAt: Date
}

/// What typing a workplace code did.
public enum WorkplaceConfirmation: Sendable, Equatable {
    /// The member's workplace is now `domain`, verified for a year.
    case verified(domain: String)
    case wrongCode(triesLeft: Int)
    /// No code under way: none was asked for, it expired, or its tries were used up.
    case noCode
    /// The address already vouches for another member.
    case addressTaken
}

/// Verified workplaces: a member proves they read a work address by typing back a code sent
/// there; the page then shows the address's domain (never the address) for a year.
extension ProfileStore {
    /// A new code for `userID` (only its hash is kept), replacing any earlier one.
    public func startWorkplaceCheck(userID: Int64, domain: String, addressHash: Data, codeHash: Data, expiresAt: Date, now: Date = Date()) throws {
        try database.write { db in
            try db.execute("""
                INSERT INTO workplaceCodes (userID, domain, addressHash, codeHash, attempts, createdAt, expiresAt) VALUES (?, ?, ?, ?, 0, ?, ?)
                ON CONFLICT (userID) DO UPDATE SET domain = excluded.domain, addressHash = excluded.addressHash,
                    codeHash = excluded.codeHash, attempts = 0, createdAt = excluded.createdAt, expiresAt = excluded.expiresAt
                """, [userID, domain, addressHash, codeHash, now, expiresAt])
        }
    }

    /// The code under way for `userID`, if one can still be typed.
    public func workplaceCheck(userID: Int64, now: Date = Date()) throws -> WorkplaceCheck? {
        try database.readRows { db in
            try db.fetchOne("SELECT domain, expiresAt FROM workplaceCodes WHERE userID = ? AND expiresAt > ?", [userID, now]) {
                WorkplaceCheck(domain: try $0.decode("domain"), expiresAt: try $0.decode("expiresAt"))
            }
        }
    }

    /// Checks a typed code (its hash) in the transaction that counts the try, so that a rush
    /// of guesses gets five tries in all; the right one verifies the workplace, or renews it.
    public func confirmWorkplace(userID: Int64, codeHash: Data, now: Date = Date()) throws -> WorkplaceConfirmation {
        try database.write { db in
            let pending = try db.fetchOne("""
                SELECT domain, addressHash, codeHash, attempts FROM workplaceCodes WHERE userID = ? AND expiresAt > ?
                """, [userID, now]) { row in
                (domain: try row.decode("domain", as: String.self), address: try row.decode("addressHash", as: Data.self),
                 code: try row.decode("codeHash", as: Data.self), attempts: try row.decode("attempts", as: Int.self))
            }
            guard let pending, pending.attempts < AppDatabase.workplaceCodeTries else { return .noCode }
            guard sameBytes(pending.code, codeHash) else {
                let attempts = pending.attempts + 1
                if attempts >= AppDatabase.workplaceCodeTries {
                    try db.execute("DELETE FROM workplaceCodes WHERE userID = ?", [userID])
                } else {
                    try db.execute("UPDATE workplaceCodes SET attempts = ? WHERE userID = ?", [attempts, userID])
                }
                return .wrongCode(triesLeft: AppDatabase.workplaceCodeTries - attempts)
            }
            try db.execute("DELETE FROM workplaceCodes WHERE userID = ?", [userID])
            if try db.value("SELECT EXISTS (SELECT 1 FROM users WHERE workplaceAddressHash = ? AND id != ?)", [pending.address, userID]) == true {
                return .addressTaken
            }
            try db.execute("UPDATE users SET workplaceDomain = ?, workplaceVerifiedAt = ?, workplaceAddressHash = ? WHERE id = ?",
                           [pending.domain, now, pending.address, userID])
            return .verified(domain: pending.domain)
        }
    }

    /// Takes the badge off (the member left that job): the address may vouch for someone else.
    public func removeWorkplace(userID: Int64) throws {
        try database.write { db in
            try db.execute("UPDATE users SET workplaceDomain = NULL, workplaceVerifiedAt = NULL, workplaceAddressHash = NULL WHERE id = ?", [userID])
            try db.execute("DELETE FROM workplaceCodes WHERE userID = ?", [userID])
        }
    }
}

extension AppDatabase {
    /// Tries a member has to type a code before it is void.
    public static let workplaceCodeTries = 5
}
