import Foundation
import GRDB

extension Migrations {
    static func createCrews(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE crews (
                id INTEGER PRIMARY KEY,
                slug TEXT NOT NULL UNIQUE CHECK (length(slug) BETWEEN 2 AND 40 AND slug NOT GLOB '*[^a-z0-9-]*'),
                name TEXT NOT NULL CHECK (length(name) BETWEEN 2 AND 60),
                sport TEXT NOT NULL CHECK (sport IN ('running', 'trail', 'cycling', 'basketball', 'hiking', 'other')),
                region TEXT CHECK (length(region) <= 30),
                description TEXT NOT NULL DEFAULT '' CHECK (length(description) <= 5000),
                descriptionHTML TEXT NOT NULL DEFAULT '',
                coverFileName TEXT,
                coverWidth INTEGER,
                coverHeight INTEGER,
                meetingTime TEXT NOT NULL DEFAULT '' CHECK (length(meetingTime) <= 100),
                meetingPlace TEXT NOT NULL DEFAULT '' CHECK (length(meetingPlace) <= 100),
                feeAmount INTEGER NOT NULL DEFAULT 0 CHECK (feeAmount BETWEEN 0 AND 100000000),
                feeCurrency TEXT NOT NULL DEFAULT 'KRW' CHECK (feeCurrency IN ('KRW', 'USD', 'EUR', 'JPY')),
                feePeriod TEXT NOT NULL DEFAULT 'month' CHECK (feePeriod IN ('once', 'month', 'year')),
                joinPolicy TEXT NOT NULL CHECK (joinPolicy IN ('open', 'approval', 'invite')),
                inviteCode TEXT CHECK (inviteCode IS NULL OR length(inviteCode) = 6),
                memberCap INTEGER CHECK (memberCap IS NULL OR memberCap BETWEEN 1 AND 100000),
                -- The cap holds even if two staff accept the last free place at once.
                memberCount INTEGER NOT NULL DEFAULT 0 CHECK (memberCount >= 0 AND (memberCap IS NULL OR memberCount <= memberCap)),
                createdAt DATETIME NOT NULL,
                lastActivityAt DATETIME NOT NULL
            );

            CREATE TABLE crewMembers (
                crewID INTEGER NOT NULL REFERENCES crews(id) ON DELETE CASCADE,
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                role TEXT NOT NULL CHECK (role IN ('owner', 'staff', 'member', 'pending')),
                joinedAt DATETIME NOT NULL,
                PRIMARY KEY (crewID, userID)
            ) WITHOUT ROWID;
            CREATE INDEX crewMembers_user ON crewMembers(userID, crewID);
            -- Exactly one owner: a second is refused, and the owner can only leave by handing over.
            CREATE UNIQUE INDEX crewMembers_owner ON crewMembers(crewID) WHERE role = 'owner';

            CREATE TABLE crewLedger (
                id INTEGER PRIMARY KEY,
                crewID INTEGER NOT NULL REFERENCES crews(id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (kind IN ('dues', 'waiver', 'income', 'expense')),
                memberID INTEGER REFERENCES users(id) ON DELETE SET NULL,
                amount INTEGER NOT NULL CHECK (amount BETWEEN 0 AND 100000000000),
                occurredOn TEXT NOT NULL CHECK (occurredOn GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
                note TEXT NOT NULL DEFAULT '' CHECK (length(note) <= 200),
                provider TEXT NOT NULL DEFAULT 'manual',
                recordedBy INTEGER NOT NULL REFERENCES users(id),
                createdAt DATETIME NOT NULL,
                CHECK ((kind IN ('dues', 'waiver')) = (memberID IS NOT NULL))
            );
            CREATE INDEX crewLedger_crew ON crewLedger(crewID, occurredOn);

            CREATE TABLE crewComments (
                id INTEGER PRIMARY KEY,
                crewID INTEGER NOT NULL REFERENCES crews(id) ON DELETE CASCADE,
                authorID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                body TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
                bodyHTML TEXT NOT NULL,
                createdAt DATETIME NOT NULL
            );
            CREATE INDEX crewComments_crew ON crewComments(crewID, id);

            ALTER TABLE posts ADD COLUMN crewID INTEGER REFERENCES crews(id) ON DELETE CASCADE;
            CREATE INDEX posts_crew ON posts(crewID, id) WHERE crewID IS NOT NULL;

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

            -- Notifications learn crew events; SQLite cannot alter a CHECK, so the table is rebuilt.
            CREATE TABLE notificationsNew (
                id INTEGER PRIMARY KEY,
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (kind IN ('follow', 'comment', 'reply', 'mention', 'crewRequest', 'crewAccepted', 'crewRejected')),
                actorID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                postID INTEGER REFERENCES posts(id) ON DELETE CASCADE,
                commentID INTEGER REFERENCES comments(id) ON DELETE CASCADE,
                crewID INTEGER REFERENCES crews(id) ON DELETE CASCADE,
                createdAt DATETIME NOT NULL,
                readAt DATETIME
            );
            INSERT INTO notificationsNew (id, userID, kind, actorID, postID, commentID, createdAt, readAt)
                SELECT id, userID, kind, actorID, postID, commentID, createdAt, readAt FROM notifications;
            DROP TABLE notifications;
            ALTER TABLE notificationsNew RENAME TO notifications;
            CREATE INDEX notifications_user ON notifications(userID, id);
            """)
    }
}
