/// Mail: the outbox the sender delivers from, single-use tokens (only their hashes) for
/// password resets and address checks, and each member's mail settings (a row per member,
/// made by a trigger). A notice cursor remembers the last notification considered for
/// immediate mail; it starts at the newest, so that old news is never mailed.
enum MailSchema {
    /// The outbox, its mail of `kinds` (v31 adds the data export's).
    static func outbox(_ t: SchemaDialect, kinds: [String]) -> String {
        """
        CREATE TABLE outbox (
            id \(t.id),
            userID \(t.integer) REFERENCES users(id) ON DELETE CASCADE,
            kind \(t.text) NOT NULL CHECK (kind IN (\(kinds.map { "'\($0)'" }.joined(separator: ", ")))),
            sender \(t.text) NOT NULL,
            recipient \(t.text) NOT NULL,
            message \(t.blob) NOT NULL,
            createdAt \(t.date) NOT NULL,
            expiresAt \(t.date) NOT NULL,
            attempts \(t.integer) NOT NULL DEFAULT 0 CHECK (attempts >= 0),
            nextAttemptAt \(t.date) NOT NULL,
            claimedUntil \(t.date),
            claimedBy \(t.integer),
            lastError \(t.text) NOT NULL DEFAULT '',
            status \(t.text) NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
            finishedAt \(t.date)
        );
        """
    }

    static let outboxIndex = "CREATE INDEX outbox_due ON outbox(status, nextAttemptAt);"

    /// Every column of the outbox, in order.
    static let outboxColumns = ["id", "userID", "kind", "sender", "recipient", "message", "createdAt", "expiresAt", "attempts", "nextAttemptAt",
                                "claimedUntil", "claimedBy", "lastError", "status", "finishedAt"]

    static func sql(_ t: SchemaDialect) -> String {
        """
        CREATE TABLE mailSettings (
            userID \(t.integer) PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            verifiedEmail \(t.caselessText),
            digest \(t.text) NOT NULL DEFAULT 'weekly' CHECK (digest IN ('off', 'daily', 'weekly')),
            meetupNotices \(t.isPostgres ? "boolean NOT NULL DEFAULT TRUE" : "INTEGER NOT NULL DEFAULT 1 CHECK (meetupNotices IN (0, 1))"),
            -- 48 hex digits from the server's strong random source.
            unsubscribeToken \(t.text) NOT NULL UNIQUE DEFAULT \(t.isPostgres
                ? "left(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 48)" : "(lower(hex(randomblob(24))))"),
            lastDigestAt \(t.date) NOT NULL DEFAULT \(t.now)
        );
        INSERT INTO mailSettings (userID) SELECT id FROM users;
        \(t.isPostgres ? postgresTrigger : sqliteTrigger)
        CREATE TABLE emailTokens (
            tokenHash \(t.blob) PRIMARY KEY CHECK (\(t.byteCount("tokenHash")) = 32),
            userID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            purpose \(t.text) NOT NULL CHECK (purpose IN ('reset', 'verify')),
            email \(t.caselessText) NOT NULL,
            createdAt \(t.date) NOT NULL,
            expiresAt \(t.date) NOT NULL,
            usedAt \(t.date)
        )\(t.withoutRowID);
        CREATE INDEX emailTokens_user ON emailTokens(userID, purpose, createdAt);
        \(outbox(t, kinds: ["reset", "verify", "emailChanged", "digest", "notice"]))
        \(outboxIndex)
        CREATE TABLE mailCursors (
            name \(t.text) PRIMARY KEY,
            position \(t.integer) NOT NULL
        )\(t.withoutRowID);
        INSERT INTO mailCursors VALUES ('notices', (SELECT coalesce(max(id), 0) FROM notifications));
        """
    }

    private static let sqliteTrigger = """
        CREATE TRIGGER users_mailSettings AFTER INSERT ON users BEGIN
            INSERT INTO mailSettings (userID) VALUES (NEW.id);
        END;
        """

    private static let postgresTrigger = """
        CREATE FUNCTION users_mailSettings() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO mailSettings (userID) VALUES (NEW.id);
            RETURN NULL;
        END $$;
        CREATE TRIGGER users_mailSettings AFTER INSERT ON users FOR EACH ROW EXECUTE FUNCTION users_mailSettings();
        """
}
