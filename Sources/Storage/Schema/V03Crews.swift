/// Crews with their members (one owner), ledger and guestbook, crew posts, the search over
/// crews' names and descriptions, and notifications of crew events.
enum CrewsSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        CREATE TABLE crews (
            id \(t.id),
            slug \(t.text) NOT NULL UNIQUE CHECK (length(slug) BETWEEN 2 AND 40 AND \(t.only("slug", "a-z0-9-"))),
            name \(t.text) NOT NULL CHECK (length(name) BETWEEN 2 AND 60),
            sport \(t.text) NOT NULL CHECK (sport IN ('running', 'trail', 'cycling', 'basketball', 'hiking', 'other')),
            region \(t.text) CHECK (length(region) <= 30),
            description \(t.text) NOT NULL DEFAULT '' CHECK (length(description) <= 5000),
            descriptionHTML \(t.text) NOT NULL DEFAULT '',
            coverFileName \(t.text),
            coverWidth \(t.integer),
            coverHeight \(t.integer),
            meetingTime \(t.text) NOT NULL DEFAULT '' CHECK (length(meetingTime) <= 100),
            meetingPlace \(t.text) NOT NULL DEFAULT '' CHECK (length(meetingPlace) <= 100),
            feeAmount \(t.integer) NOT NULL DEFAULT 0 CHECK (feeAmount BETWEEN 0 AND 100000000),
            feeCurrency \(t.text) NOT NULL DEFAULT 'KRW' CHECK (feeCurrency IN ('KRW', 'USD', 'EUR', 'JPY')),
            feePeriod \(t.text) NOT NULL DEFAULT 'month' CHECK (feePeriod IN ('once', 'month', 'year')),
            joinPolicy \(t.text) NOT NULL CHECK (joinPolicy IN ('open', 'approval', 'invite')),
            inviteCode \(t.text) CHECK (inviteCode IS NULL OR length(inviteCode) = 6),
            memberCap \(t.integer) CHECK (memberCap IS NULL OR memberCap BETWEEN 1 AND 100000),
            -- The cap holds even if two staff accept the last free place at once.
            memberCount \(t.integer) NOT NULL DEFAULT 0 CHECK (memberCount >= 0 AND (memberCap IS NULL OR memberCount <= memberCap)),
            createdAt \(t.date) NOT NULL,
            lastActivityAt \(t.date) NOT NULL
        );

        CREATE TABLE crewMembers (
            crewID \(t.integer) NOT NULL REFERENCES crews(id) ON DELETE CASCADE,
            userID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            role \(t.text) NOT NULL CHECK (role IN ('owner', 'staff', 'member', 'pending')),
            joinedAt \(t.date) NOT NULL,
            PRIMARY KEY (crewID, userID)
        )\(t.withoutRowID);
        CREATE INDEX crewMembers_user ON crewMembers(userID, crewID);
        -- Exactly one owner: a second is refused, and the owner can only leave by handing over.
        CREATE UNIQUE INDEX crewMembers_owner ON crewMembers(crewID) WHERE role = 'owner';

        CREATE TABLE crewLedger (
            id \(t.id),
            crewID \(t.integer) NOT NULL REFERENCES crews(id) ON DELETE CASCADE,
            kind \(t.text) NOT NULL CHECK (kind IN ('dues', 'waiver', 'income', 'expense')),
            memberID \(t.integer) REFERENCES users(id) ON DELETE SET NULL,
            amount \(t.integer) NOT NULL CHECK (amount BETWEEN 0 AND 100000000000),
            occurredOn \(t.text) NOT NULL CHECK (\(t.isDay("occurredOn"))),
            note \(t.text) NOT NULL DEFAULT '' CHECK (length(note) <= 200),
            provider \(t.text) NOT NULL DEFAULT 'manual',
            recordedBy \(t.integer) NOT NULL REFERENCES users(id),
            createdAt \(t.date) NOT NULL,
            CHECK ((kind IN ('dues', 'waiver')) = (memberID IS NOT NULL))
        );
        CREATE INDEX crewLedger_crew ON crewLedger(crewID, occurredOn);

        CREATE TABLE crewComments (
            id \(t.id),
            crewID \(t.integer) NOT NULL REFERENCES crews(id) ON DELETE CASCADE,
            authorID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            body \(t.text) NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
            bodyHTML \(t.text) NOT NULL,
            createdAt \(t.date) NOT NULL
        );
        CREATE INDEX crewComments_crew ON crewComments(crewID, id);

        ALTER TABLE posts ADD COLUMN crewID \(t.integer) REFERENCES crews(id) ON DELETE CASCADE;
        CREATE INDEX posts_crew ON posts(crewID, id) WHERE crewID IS NOT NULL;

        \(t.isPostgres ? postgresSearch : sqliteSearch)

        -- Notifications learn crew events; SQLite cannot alter a CHECK, so the table is rebuilt.
        \(NotificationsSchema.rebuild(t, from: .feed, to: .crews, kinds: kinds))
        """
    }

    /// The notifications of the feed's, and of crews.
    static let kinds = FeedSchema.notificationKinds + ["crewRequest", "crewAccepted", "crewRejected"]

    private static let sqliteSearch = """
        CREATE VIRTUAL TABLE crewSearch USING fts5(name, description, content='crews', content_rowid='id', tokenize='trigram');
        CREATE TRIGGER crews_search_insert AFTER INSERT ON crews BEGIN
            INSERT INTO crewSearch(rowid, name, description) VALUES (new.id, new.name, new.description);
        END;
        CREATE TRIGGER crews_search_delete AFTER DELETE ON crews BEGIN
            INSERT INTO crewSearch(crewSearch, rowid, name, description) VALUES ('delete', old.id, old.name, old.description);
        END;
        CREATE TRIGGER crews_search_update AFTER UPDATE OF name, description ON crews BEGIN
            INSERT INTO crewSearch(crewSearch, rowid, name, description) VALUES ('delete', old.id, old.name, old.description);
            INSERT INTO crewSearch(rowid, name, description) VALUES (new.id, new.name, new.description);
        END;
        """

    /// What SQLite's trigram FTS5 table finds: any substring, Hangul included.
    private static let postgresSearch = """
        CREATE INDEX crews_search ON crews USING gin (name gin_trgm_ops, description gin_trgm_ops);
        """
}
