import Foundation

/// The links mailed to reset a password or prove an address, kept as hashes.
extension AccountStore {
    /// Stores a token's hash; `email` is the address it was sent to.
    public func createEmailToken(userID: Int64, purpose: EmailTokenPurpose, email: String, tokenHash: Data,
                                 validFor lifetime: TimeInterval, now: Date = Date()) throws {
        try database.write { db in try insertEmailToken(db, userID: userID, purpose: purpose, email: email, tokenHash: tokenHash, validFor: lifetime, now: now) }
    }

    /// Tokens of `purpose` made for the account since `since`: its rate limit, which a
    /// restart does not reset.
    public func emailTokenCount(userID: Int64, purpose: EmailTokenPurpose, since: Date) throws -> Int {
        try database.read { db in
            try db.value("SELECT count(*) FROM emailTokens WHERE userID = ? AND purpose = ? AND createdAt > ?", [userID, purpose.rawValue, since], as: Int.self) ?? 0
        }
    }

    /// The account a reset link is for, if the link can still be used.
    public func resetTokenUser(tokenHash: Data, now: Date = Date()) throws -> Result<User, EmailTokenError> {
        try database.read { db in try usableToken(db, tokenHash, purpose: .reset, now: now).map(\.user) }
    }

    /// Sets the new password, uses the token up and ends every session of the account (and
    /// every other reset link), in one transaction.
    public func resetPassword(tokenHash: Data, passwordHash: String, now: Date = Date()) throws -> Result<User, EmailTokenError> {
        try database.write { db in
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
        try database.write { db in
            let found = try usableToken(db, tokenHash, purpose: .verify, now: now)
            guard case .success(let (user, email)) = found, let userID = user.id else { return found.map(\.user) }
            guard email.lowercased() == user.email.lowercased() else { return .failure(.addressChanged) }
            try db.execute("UPDATE mailSettings SET verifiedEmail = ? WHERE userID = ?", [email, userID])
            try db.execute("UPDATE emailTokens SET usedAt = ? WHERE tokenHash = ?", [now, tokenHash])
            return .success(user)
        }
    }

    /// Gives the member a new address (unverified until its link is followed) and, in the
    /// same transaction, what must come with it: links sent to the old address stop working,
    /// the new address's proof link (`proof`: its token's hash and how long it is valid) is
    /// stored and `mails` are queued. A failure leaves all of it undone.
    public func changeEmail(
        userID: Int64, to email: String, proof: (tokenHash: Data, validFor: TimeInterval)? = nil, mails: [OutgoingMail] = [], now: Date = Date()
    ) throws {
        try database.write { db in
            if try db.value("SELECT count(*) FROM users WHERE email = ? AND id != ?", [email, userID], as: Int.self) ?? 0 > 0 {
                throw StorageError.emailTaken
            }
            try db.execute("UPDATE users SET email = ? WHERE id = ?", [email, userID])
            try db.execute("DELETE FROM emailTokens WHERE userID = ? AND usedAt IS NULL", [userID])
            if let proof {
                try insertEmailToken(db, userID: userID, purpose: .verify, email: email, tokenHash: proof.tokenHash, validFor: proof.validFor, now: now)
            }
            for mail in mails { try database.insert(db, mail, now: now) }
        }
    }
}

extension AccountStore {
    private func insertEmailToken(_ db: SQLConnection, userID: Int64, purpose: EmailTokenPurpose, email: String, tokenHash: Data,
                                      validFor lifetime: TimeInterval, now: Date) throws {
        try db.execute("INSERT INTO emailTokens (tokenHash, userID, purpose, email, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?, ?)",
                       [tokenHash, userID, purpose.rawValue, email, now, now.addingTimeInterval(lifetime)])
    }

    private func usableToken(_ db: SQLConnection, _ tokenHash: Data, purpose: EmailTokenPurpose, now: Date) throws -> Result<(user: User, email: String), EmailTokenError> {
        let token = try db.fetchOne("""
            SELECT \(User.selection.qualified), emailTokens.email AS tokenEmail, emailTokens.expiresAt AS tokenExpiresAt, emailTokens.usedAt AS tokenUsedAt FROM emailTokens JOIN users ON users.id = emailTokens.userID
            WHERE tokenHash = ? AND purpose = ?
            """, [tokenHash, purpose.rawValue]) { row in
            (user: try User(row: row, startingAt: 0), email: try row.decode("tokenEmail", as: String.self),
             expiresAt: try row.decode("tokenExpiresAt", as: Date.self), usedAt: try row.decode("tokenUsedAt", as: Date?.self))
        }
        guard let token, token.usedAt == nil else { return .failure(.invalid) }
        if token.expiresAt <= now { return .failure(.expired) }
        return .success((token.user, token.email))
    }
}
