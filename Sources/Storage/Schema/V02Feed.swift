/// Posts with their photos and tags, likes, bookmarks, follows, threaded comments and
/// notifications, and the search over posts' text.
enum FeedSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        CREATE TABLE posts (
            id \(t.id),
            authorID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            body \(t.text) NOT NULL CHECK (length(body) <= 10000),
            bodyHTML \(t.text) NOT NULL,
            createdAt \(t.date) NOT NULL,
            updatedAt \(t.date),
            likeCount \(t.integer) NOT NULL DEFAULT 0 CHECK (likeCount >= 0),
            commentCount \(t.integer) NOT NULL DEFAULT 0 CHECK (commentCount >= 0)
        );
        CREATE INDEX posts_author ON posts(authorID, id);

        CREATE TABLE photos (
            id \(t.id),
            postID \(t.integer) NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
            position \(t.integer) NOT NULL CHECK (position BETWEEN 0 AND 9),
            fileName \(t.text) NOT NULL UNIQUE,
            mediaType \(t.text) NOT NULL CHECK (mediaType IN ('image/jpeg', 'image/png', 'image/webp', 'image/gif')),
            width \(t.integer) NOT NULL CHECK (width > 0),
            height \(t.integer) NOT NULL CHECK (height > 0),
            byteCount \(t.integer) NOT NULL CHECK (byteCount > 0),
            UNIQUE (postID, position)
        );

        CREATE TABLE postTags (
            tag \(t.text) NOT NULL CHECK (length(tag) BETWEEN 1 AND 200),
            postID \(t.integer) NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
            PRIMARY KEY (tag, postID)
        )\(t.withoutRowID);
        CREATE INDEX postTags_post ON postTags(postID);

        CREATE TABLE likes (
            postID \(t.integer) NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
            userID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            createdAt \(t.date) NOT NULL,
            PRIMARY KEY (postID, userID)
        )\(t.withoutRowID);
        CREATE INDEX likes_user ON likes(userID, postID);

        CREATE TABLE bookmarks (
            id \(t.id),
            userID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            postID \(t.integer) NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
            createdAt \(t.date) NOT NULL,
            UNIQUE (userID, postID)
        );

        CREATE TABLE follows (
            followerID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            followeeID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            createdAt \(t.date) NOT NULL,
            PRIMARY KEY (followerID, followeeID),
            CHECK (followerID != followeeID)
        )\(t.withoutRowID);
        CREATE INDEX follows_followee ON follows(followeeID, followerID);

        CREATE TABLE comments (
            id \(t.id),
            postID \(t.integer) NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
            authorID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            parentID \(t.integer) REFERENCES comments(id) ON DELETE CASCADE,
            depth \(t.integer) NOT NULL CHECK (depth BETWEEN 0 AND 4),
            body \(t.text) NOT NULL CHECK (length(body) <= 5000),
            bodyHTML \(t.text) NOT NULL,
            createdAt \(t.date) NOT NULL,
            updatedAt \(t.date),
            deletedAt \(t.date)
        );
        CREATE INDEX comments_post ON comments(postID, id);
        CREATE INDEX comments_parent ON comments(parentID);

        \(NotificationsSchema.create(t, .feed, kinds: notificationKinds))
        \(NotificationsSchema.index)

        \(t.isPostgres ? postgresSearch : sqliteSearch)
        """
    }

    /// What the first notifications told of.
    static let notificationKinds = ["follow", "comment", "reply", "mention"]

    /// Trigram tokens find any substring of 3+ characters, Hangul included, where the default
    /// unicode61 tokenizer would only match whole space-separated words.
    private static let sqliteSearch = """
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
        """

    /// pg_trgm's index over the table itself answers what SQLite's trigram table does.
    private static let postgresSearch = """
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
        CREATE INDEX posts_search ON posts USING gin (body gin_trgm_ops);
        """
}
