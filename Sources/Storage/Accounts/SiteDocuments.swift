import Foundation

/// One version of a document the operator owns (terms, privacy policy, refund policy), as
/// Markdown. Every save is a new version; members agree to a version of the terms and of the
/// privacy policy, and are asked again when a newer one is published.
public struct SiteDocument: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case terms, privacy, refunds

        /// Whether a new version asks every member to agree again.
        public var needsAgreement: Bool { self != .refunds }
    }

    public var kind: Kind
    public var version: Int
    public var body: String
    public var publishedAt: Date

    public static let maximumLength = 100_000
}

/// The latest version of each document, which the consent on every page compares with.
public struct DocumentVersions: Sendable, Equatable {
    public var terms: Int
    public var privacy: Int
    public var refunds: Int

    public init(terms: Int, privacy: Int, refunds: Int) {
        self.terms = terms
        self.privacy = privacy
        self.refunds = refunds
    }

    public subscript(kind: SiteDocument.Kind) -> Int {
        switch kind {
        case .terms: terms
        case .privacy: privacy
        case .refunds: refunds
        }
    }

    /// What `user` has yet to agree to.
    public func pending(for user: User) -> [SiteDocument.Kind] {
        (user.termsVersion < terms ? [.terms] : []) + (user.privacyVersion < privacy ? [.privacy] : [])
    }
}

/// What a newcomer agreed to on the signup form, or a member on the page that asks again.
public struct Consent: Sendable, Equatable {
    /// The versions agreed to (nil: not asked this time).
    public var terms: Int?
    public var privacy: Int?
    /// Said they are 14 or older.
    public var olderThan14: Bool
    public var marketing: Bool

    public init(terms: Int?, privacy: Int?, olderThan14: Bool, marketing: Bool) {
        self.terms = terms
        self.privacy = privacy
        self.olderThan14 = olderThan14
        self.marketing = marketing
    }
}

/// An agreement as the member's data export lists it.
public struct AgreementRecord: Sendable, Equatable {
    public var kind: String
    public var version: Int
    public var agreedAt: Date
}

extension AccountStore {
    public func documentVersions() throws -> DocumentVersions {
        let latest = try database.readRows { db in
            try db.fetchAll("SELECT kind, max(version) AS version FROM documents GROUP BY kind", []) { row in
                (kind: SiteDocument.Kind(rawValue: try row.decode("kind")), version: try row.decode("version") as Int)
            }
        }
        func version(_ kind: SiteDocument.Kind) -> Int { latest.first { $0.kind == kind }?.version ?? 0 }
        return DocumentVersions(terms: version(.terms), privacy: version(.privacy), refunds: version(.refunds))
    }

    /// A version of a document (the latest when `version` is nil).
    public func document(_ kind: SiteDocument.Kind, version: Int? = nil) throws -> SiteDocument? {
        try database.readRows { db in
            let sql = "SELECT version, body, publishedAt FROM documents WHERE kind = ?"
                + (version == nil ? " ORDER BY version DESC LIMIT 1" : " AND version = ?")
            return try db.fetchAll(sql, version.map { [kind.rawValue, $0] } ?? [kind.rawValue]) { row in
                SiteDocument(kind: kind, version: try row.decode("version"), body: try row.decode("body"), publishedAt: try row.decode("publishedAt"))
            }.first
        }
    }

    /// Every version of a document, newest first, without their texts.
    public func documentHistory(_ kind: SiteDocument.Kind) throws -> [(version: Int, publishedAt: Date)] {
        try database.readRows { db in
            try db.fetchAll("SELECT version, publishedAt FROM documents WHERE kind = ? ORDER BY version DESC", [kind.rawValue]) { row in
                (try row.decode("version"), try row.decode("publishedAt"))
            }
        }
    }

    /// Saves `body` as the next version of the document; returns its number. Two admins saving
    /// at once: the second's insert conflicts, and its transaction is tried again on top.
    public func publishDocument(_ kind: SiteDocument.Kind, body: String, now: Date = Date()) throws -> Int {
        try database.write { db in
            let version = (try db.value("SELECT max(version) FROM documents WHERE kind = ?", [kind.rawValue], as: Int.self) ?? 0) + 1
            try db.execute("INSERT INTO documents (kind, version, body, publishedAt) VALUES (?, ?, ?, ?)", [kind.rawValue, version, body, now])
            return version
        }
    }

    /// Records what a signed-in member agreed to on the page that asks again.
    public func agree(userID: Int64, to consent: Consent, now: Date = Date()) throws {
        try database.write { db in
            try record(consent, userID: userID, in: db, now: now)
            db.changed(.member(userID: userID))
        }
    }

    /// Writes `consent`'s agreements and the versions on the member's row.
    func record(_ consent: Consent, userID: Int64, in db: SQLConnection, now: Date) throws {
        let rows: [(String, Int)] = [consent.terms.map { ("terms", $0) }, consent.privacy.map { ("privacy", $0) },
                                     consent.olderThan14 ? ("age", 0) : nil].compactMap { $0 }
        for (kind, version) in rows {
            try db.execute("INSERT INTO agreements (userID, kind, version, agreedAt) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                           [userID, kind, version, now])
        }
        if let terms = consent.terms {
            try db.execute("UPDATE users SET termsVersion = \(db.greatest("termsVersion", "?")) WHERE id = ?", [terms, userID])
        }
        if let privacy = consent.privacy {
            try db.execute("UPDATE users SET privacyVersion = \(db.greatest("privacyVersion", "?")) WHERE id = ?", [privacy, userID])
        }
    }

    /// A member's agreements, oldest first.
    public func agreements(userID: Int64) throws -> [AgreementRecord] {
        try database.readRows { db in
            try db.fetchAll("SELECT kind, version, agreedAt FROM agreements WHERE userID = ? ORDER BY agreedAt, kind", [userID]) { row in
                AgreementRecord(kind: try row.decode("kind"), version: try row.decode("version"), agreedAt: try row.decode("agreedAt"))
            }
        }
    }

    /// Takes news by mail from now on, or no longer.
    public func setMarketing(userID: Int64, _ on: Bool, now: Date = Date()) throws {
        try database.write { db in
            if on {
                try db.execute("UPDATE users SET marketingSince = coalesce(marketingSince, ?) WHERE id = ?", [now, userID])
            } else {
                try db.execute("UPDATE users SET marketingSince = NULL WHERE id = ?", [userID])
            }
            db.changed(.member(userID: userID))
        }
    }
}
