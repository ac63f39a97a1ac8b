import Foundation
import GRDB

extension Migrations {
    static func createFeed(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE posts (
                id INTEGER PRIMARY KEY,
                authorID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                body TEXT NOT NULL CHECK (length(body) <= 10000),
                bodyHTML TEXT NOT NULL,
                createdAt DATETIME NOT NULL,
                updatedAt DATETIME,
                likeCount INTEGER NOT NULL DEFAULT 0 CHECK (likeCount >= 0),
                commentCount INTEGER NOT NULL DEFAULT 0 CHECK (commentCount >= 0)
            );
            CREATE INDEX posts_author ON posts(authorID, id);

            CREATE TABLE photos (
                id INTEGER PRIMARY KEY,
                postID INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                position INTEGER NOT NULL CHECK (position BETWEEN 0 AND 9),
                fileName TEXT NOT NULL UNIQUE,
                mediaType TEXT NOT NULL CHECK (mediaType IN ('image/jpeg', 'image/png', 'image/webp', 'image/gif')),
                width INTEGER NOT NULL CHECK (width > 0),
                height INTEGER NOT NULL CHECK (height > 0),
                byteCount INTEGER NOT NULL CHECK (byteCount > 0),
                UNIQUE (postID, position)
            );

            CREATE TABLE postTags (
                tag TEXT NOT NULL CHECK (length(tag) BETWEEN 1 AND 200),
                postID INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                PRIMARY KEY (tag, postID)
            ) WITHOUT ROWID;
            CREATE INDEX postTags_post ON postTags(postID);

            CREATE TABLE likes (
                postID INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                createdAt DATETIME NOT NULL,
                PRIMARY KEY (postID, userID)
            ) WITHOUT ROWID;
            CREATE INDEX likes_user ON likes(userID, postID);

            CREATE TABLE bookmarks (
                id INTEGER PRIMARY KEY,
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                postID INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                createdAt DATETIME NOT NULL,
                UNIQUE (userID, postID)
            );

            CREATE TABLE follows (
                followerID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                followeeID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                createdAt DATETIME NOT NULL,
                PRIMARY KEY (followerID, followeeID),
                CHECK (followerID != followeeID)
            ) WITHOUT ROWID;
            CREATE INDEX follows_followee ON follows(followeeID, followerID);

            CREATE TABLE comments (
                id INTEGER PRIMARY KEY,
                postID INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                authorID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                parentID INTEGER REFERENCES comments(id) ON DELETE CASCADE,
                depth INTEGER NOT NULL CHECK (depth BETWEEN 0 AND 4),
                body TEXT NOT NULL CHECK (length(body) <= 5000),
                bodyHTML TEXT NOT NULL,
                createdAt DATETIME NOT NULL,
                updatedAt DATETIME,
                deletedAt DATETIME
            );
            CREATE INDEX comments_post ON comments(postID, id);
            CREATE INDEX comments_parent ON comments(parentID);

            CREATE TABLE notifications (
                id INTEGER PRIMARY KEY,
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (kind IN ('follow', 'comment', 'reply', 'mention')),
                actorID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                postID INTEGER REFERENCES posts(id) ON DELETE CASCADE,
                commentID INTEGER REFERENCES comments(id) ON DELETE CASCADE,
                createdAt DATETIME NOT NULL,
                readAt DATETIME
            );
            CREATE INDEX notifications_user ON notifications(userID, id);

            -- Trigram tokens find any substring of 3+ characters, Hangul included, where the
            -- default unicode61 tokenizer would only match whole space-separated words.
            CREATE VIRTUAL TABLE postSearch USING fts5(body, content='posts', content_rowid='id', tokenize='trigram');
            CREATE TRIGGER posts_search_insert AFTER INSERT ON posts BEGIN
                INSERT INTO postSearch(rowid, body) VALUES (new.id, new.body);
            END;
            CREATE TRIGGER posts_search_delete AFTER DELETE ON posts BEGIN
                INSERT INTO postSearch(postSearch, rowid, body) VALUES ('delete', old.id, old.body);
            END;
            CREATE TRIGGER posts_search_update AFTER UPDATE OF body ON posts BEGIN
                INSERT INTO postSearch(postSearch, rowid, body) VALUES ('delete', old.id, old.body);
                INSERT INTO postSearch(rowid, body) VALUES (new.id, new.body);
            END;
            """)
    }
}
