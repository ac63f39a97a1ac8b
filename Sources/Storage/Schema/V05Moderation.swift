import Foundation
import GRDB

extension Migrations {
    static func createModeration(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE posts ADD COLUMN hiddenAt DATETIME;
            ALTER TABLE posts ADD COLUMN commentsLocked BOOLEAN NOT NULL DEFAULT 0;
            ALTER TABLE comments ADD COLUMN hiddenAt DATETIME;
            ALTER TABLE crews ADD COLUMN hiddenAt DATETIME;
            ALTER TABLE meetups ADD COLUMN hiddenAt DATETIME;
            ALTER TABLE users ADD COLUMN suspendedUntil DATETIME;
            ALTER TABLE users ADD COLUMN silencedUntil DATETIME;
            ALTER TABLE users ADD COLUMN sanctionReason TEXT NOT NULL DEFAULT '';

            CREATE TABLE reports (
                id INTEGER PRIMARY KEY,
                reporterID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                targetType TEXT NOT NULL CHECK (targetType IN ('post', 'comment', 'crew', 'meetup', 'user')),
                targetID INTEGER NOT NULL,
                reason TEXT NOT NULL CHECK (reason IN ('spam', 'harassment', 'inappropriate', 'offTopic', 'other')),
                note TEXT NOT NULL DEFAULT '' CHECK (length(note) <= 500),
                createdAt DATETIME NOT NULL,
                resolvedAt DATETIME,
                resolution TEXT
            );
            -- One open report per reporter per target.
            CREATE UNIQUE INDEX reports_open ON reports(reporterID, targetType, targetID) WHERE resolvedAt IS NULL;
            CREATE INDEX reports_target ON reports(targetType, targetID);

            CREATE TABLE moderationLog (
                id INTEGER PRIMARY KEY,
                moderatorID INTEGER REFERENCES users(id) ON DELETE SET NULL,
                action TEXT NOT NULL,
                targetType TEXT NOT NULL,
                targetID INTEGER NOT NULL,
                targetLabel TEXT NOT NULL DEFAULT '',
                reason TEXT NOT NULL DEFAULT '',
                createdAt DATETIME NOT NULL
            );

            CREATE TABLE warnings (
                id INTEGER PRIMARY KEY,
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                moderatorID INTEGER REFERENCES users(id) ON DELETE SET NULL,
                reason TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
                createdAt DATETIME NOT NULL,
                readAt DATETIME
            );

            CREATE TABLE blocks (
                blockerID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                blockedID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                createdAt DATETIME NOT NULL,
                PRIMARY KEY (blockerID, blockedID),
                CHECK (blockerID != blockedID)
            ) WITHOUT ROWID;
            CREATE INDEX blocks_blocked ON blocks(blockedID, blockerID);
            """)
    }
}
