import Foundation
import GRDB

extension Migrations {
    /// Each member's home feed as rows of its own, kept by triggers: a post is added to the
    /// timelines of its author, the author's followers and (a crew post) the crew's members;
    /// following someone or joining a crew adds their posts; unfollowing or leaving removes
    /// those no other reason keeps. Reading a feed is then one index range, whatever the
    /// number of followees (measured in the README). The read checks each row's reason again,
    /// so a row a trigger missed can never show a post to someone it was not meant for.
    /// Elapsed seconds at each kilometre of a run read from a GPX file with times, as
    /// "301,598,…" (stored tracks keep no times, so splits are worked out at upload).
    /// Mail: the outbox the sender delivers from, single-use tokens (only their hashes) for
    /// password resets and address checks, and each member's mail settings (a row per member,
    /// made by a trigger). A notice cursor remembers the last notification considered for
    /// immediate mail; it starts at the newest, so that old news is never mailed.
    static func addMail(_ db: Database) throws {
        let now = "(strftime('%Y-%m-%d %H:%M:%f', 'now'))"
        try db.execute(sql: """
            CREATE TABLE mailSettings (
                userID INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                verifiedEmail TEXT COLLATE NOCASE,
                digest TEXT NOT NULL DEFAULT 'weekly' CHECK (digest IN ('off', 'daily', 'weekly')),
                meetupNotices INTEGER NOT NULL DEFAULT 1 CHECK (meetupNotices IN (0, 1)),
                unsubscribeToken TEXT NOT NULL UNIQUE DEFAULT (lower(hex(randomblob(24)))),
                lastDigestAt DATETIME NOT NULL DEFAULT \(now)
            );
            INSERT INTO mailSettings (userID) SELECT id FROM users;
            CREATE TRIGGER users_mailSettings AFTER INSERT ON users BEGIN
                INSERT INTO mailSettings (userID) VALUES (NEW.id);
            END;
            CREATE TABLE emailTokens (
                tokenHash BLOB PRIMARY KEY CHECK (length(tokenHash) = 32),
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                purpose TEXT NOT NULL CHECK (purpose IN ('reset', 'verify')),
                email TEXT NOT NULL COLLATE NOCASE,
                createdAt DATETIME NOT NULL,
                expiresAt DATETIME NOT NULL,
                usedAt DATETIME
            ) WITHOUT ROWID;
            CREATE INDEX emailTokens_user ON emailTokens(userID, purpose, createdAt);
            CREATE TABLE outbox (
                id INTEGER PRIMARY KEY,
                userID INTEGER REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (kind IN ('reset', 'verify', 'emailChanged', 'digest', 'notice')),
                sender TEXT NOT NULL,
                recipient TEXT NOT NULL,
                message BLOB NOT NULL,
                createdAt DATETIME NOT NULL,
                expiresAt DATETIME NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
                nextAttemptAt DATETIME NOT NULL,
                claimedUntil DATETIME,
                claimedBy INTEGER,
                lastError TEXT NOT NULL DEFAULT '',
                status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
                finishedAt DATETIME
            );
            CREATE INDEX outbox_due ON outbox(status, nextAttemptAt);
            CREATE TABLE mailCursors (
                name TEXT PRIMARY KEY,
                position INTEGER NOT NULL
            ) WITHOUT ROWID;
            INSERT INTO mailCursors VALUES ('notices', (SELECT ifnull(max(id), 0) FROM notifications));
            """)
    }
}
