/// An account's life from consent to deletion:
/// - a second factor for signing in: one-time codes from an authenticator app (the secret, the
///   last time step used, so a code never works twice) and recovery codes kept as hashes; and
///   when a session last proved it (staff pages ask for it);
/// - the operator's documents (terms, privacy policy, refund policy), every saved version kept,
///   the first version of each Moim's own text;
/// - each agreement a member gave (to which version, when), with the versions they last agreed
///   to on the member's row, read with every page;
/// - which browser a session is, for the list of signed-in browsers;
/// - when an account was deleted (what others still need moves to one deleted-member row), and
///   the providers' grants to revoke then;
/// - passkeys, and the challenges given for them;
/// - a member's download of their data, and the mail that says it is ready.
enum AccountsSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        CREATE TABLE twoFactor (
            userID \(t.integer) PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            -- Base32, as the app took it; being set up until confirmed by a first code.
            secret \(t.text) NOT NULL CHECK (length(secret) BETWEEN 16 AND 64),
            confirmedAt \(t.date),
            lastStep \(t.integer) NOT NULL DEFAULT 0
        );
        CREATE TABLE recoveryCodes (
            userID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            codeHash \(t.blob) NOT NULL,
            usedAt \(t.date),
            PRIMARY KEY (userID, codeHash)
        )\(t.withoutRowID);
        ALTER TABLE sessions ADD COLUMN secondFactorAt \(t.date);
        ALTER TABLE sessions ADD COLUMN userAgent \(t.text) NOT NULL DEFAULT '';

        CREATE TABLE documents (
            kind \(t.text) NOT NULL CHECK (kind IN ('terms', 'privacy', 'refunds')),
            version \(t.integer) NOT NULL CHECK (version >= 1),
            body \(t.text) NOT NULL CHECK (length(body) BETWEEN 1 AND 100000),
            publishedAt \(t.date) NOT NULL,
            PRIMARY KEY (kind, version)
        )\(t.withoutRowID);
        \(SiteDocument.Kind.allCases.map { kind in
            "INSERT INTO documents (kind, version, body, publishedAt) VALUES ('\(kind.rawValue)', 1, \(t.quoted(SiteDocument.defaultBody(kind))), \(t.now));"
        }.joined(separator: "\n"))

        -- What each member agreed to: a document's version, or (version 0) being 14 or older.
        CREATE TABLE agreements (
            userID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            kind \(t.text) NOT NULL CHECK (kind IN ('terms', 'privacy', 'age')),
            version \(t.integer) NOT NULL CHECK (version >= 0),
            agreedAt \(t.date) NOT NULL,
            PRIMARY KEY (userID, kind, version)
        )\(t.withoutRowID);
        ALTER TABLE users ADD COLUMN termsVersion \(t.integer) NOT NULL DEFAULT 0;
        ALTER TABLE users ADD COLUMN privacyVersion \(t.integer) NOT NULL DEFAULT 0;
        -- Since when they take news and offers by mail; NULL for no.
        ALTER TABLE users ADD COLUMN marketingSince \(t.date);
        ALTER TABLE users ADD COLUMN deletedAt \(t.date);
        -- A provider's refresh token, kept only where the provider can revoke it (Sign in with
        -- Apple asks that the grant is revoked when the account is deleted).
        ALTER TABLE identities ADD COLUMN refreshToken \(t.text);
        ALTER TABLE pendingIdentities ADD COLUMN refreshToken \(t.text);

        -- Passkeys: the credential's id and COSE key as registered, its signature count.
        CREATE TABLE passkeys (
            id \(t.id),
            userID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            credentialID \(t.blob) NOT NULL UNIQUE CHECK (\(t.byteCount("credentialID")) BETWEEN 1 AND 1023),
            publicKey \(t.blob) NOT NULL CHECK (\(t.byteCount("publicKey")) BETWEEN 1 AND 2048),
            algorithm \(t.integer) NOT NULL CHECK (algorithm IN (-7, -8, -257)),
            signCount \(t.integer) NOT NULL DEFAULT 0 CHECK (signCount >= 0),
            name \(t.text) NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
            createdAt \(t.date) NOT NULL,
            lastUsedAt \(t.date)
        );
        CREATE INDEX passkeys_user ON passkeys(userID);
        -- Challenges given to browsers, each good once for five minutes.
        CREATE TABLE passkeyChallenges (
            challengeHash \(t.blob) PRIMARY KEY CHECK (\(t.byteCount("challengeHash")) = 32),
            purpose \(t.text) NOT NULL CHECK (purpose IN ('register', 'signin')),
            userID \(t.integer) REFERENCES users(id) ON DELETE CASCADE,
            createdAt \(t.date) NOT NULL
        )\(t.withoutRowID);

        -- A member's download of their data: one at a time, the file kept for 7 days.
        CREATE TABLE dataExports (
            userID \(t.integer) PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            requestedAt \(t.date) NOT NULL,
            readyAt \(t.date),
            fileName \(t.text) CHECK (fileName IS NULL OR length(fileName) <= 64),
            byteCount \(t.integer) CHECK (byteCount IS NULL OR byteCount >= 0)
        );
        -- The outbox takes the mail that says an export is ready.
        \(t.rebuild("outbox", create: MailSchema.outbox(t, kinds: ["reset", "verify", "emailChanged", "digest", "notice", "export"]),
                    copied: MailSchema.outboxColumns, indexes: [MailSchema.outboxIndex]))
        """
    }
}
