/// A second factor for signing in: one-time codes from an authenticator app (the secret, the
/// last time step used, so a code never works twice) and recovery codes kept as hashes; and
/// when a session last proved it (staff pages ask for it).
enum TwoFactorSchema {
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
        """
    }
}
