import GRDB

/// Search whose cost does not grow with the site: three tables that answer what the trigram
/// indexes cannot, or can only by reading every match.
///
/// - `postGrams`: each pair of adjacent Hangul syllables in a post (written by Swift when the
///   post is written, `SearchText.hangulPairs`). A two-syllable Korean word, below the three
///   characters a trigram index needs, was found by reading the newest 5,000 posts; now it is
///   one range of an index, newest first, whatever the site's size.
/// - `nameKeys`: every suffix of a member's display name (and the username), a crew's name and a
///   meetup's title, lower-cased as `lower()` does (ASCII only, on both engines). Text found
///   anywhere in a name is a prefix of one of its suffixes: a range of the primary key, walked
///   until the page is full. Triggers keep it, so every write, by Moim or not, keeps it true.
/// - `tagCounts`: the number of posts of each tag, kept by triggers on `postTags`; tags starting
///   with a prefix were counted from every post they tag on each search.
enum SearchKeysSchema {
    /// Names are at most 60 characters (display names 50): one position per character.
    private static let positions = "[" + (1...60).map(String.init).joined(separator: ",") + "]"

    /// The keys of each kind of item: its table, and the columns whose text is searched.
    private static let named: [(kind: String, table: String, name: String, username: String?)] = [
        ("user", "users", "displayName", "username"), ("crew", "crews", "name", nil), ("meetup", "meetups", "title", nil),
    ]

    /// The suffixes of `name` (a column expression) that start with something other than a
    /// space, as rows of `key`; `from` joins the positions to a table.
    private static func sqliteSuffixes(_ name: String, from table: String? = nil) -> String {
        "SELECT substr(lower(\(name)), value) AS key\(table.map { ", \($0).id AS itemID" } ?? "") FROM \(table.map { "\($0), " } ?? "")json_each('\(positions)') "
            + "WHERE value <= length(\(name)) AND substr(\(name), value, 1) <> ' '"
    }

    /// A row's keys (`new` or `old` in a trigger).
    private static func sqliteKeys(_ item: (kind: String, table: String, name: String, username: String?), of row: String) -> String {
        sqliteSuffixes("\(row).\(item.name)") + (item.username.map { " UNION SELECT \(row).\($0)" } ?? "")
    }

    static let sqlite: String = {
        var sql = """
            CREATE TABLE postGrams (
                gram TEXT NOT NULL CHECK (length(gram) = 2),
                postID INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                PRIMARY KEY (gram, postID)
            ) WITHOUT ROWID;
            CREATE INDEX postGrams_post ON postGrams(postID);
            CREATE TABLE nameKeys (
                kind TEXT NOT NULL CHECK (kind IN ('user', 'crew', 'meetup')),
                key TEXT NOT NULL,
                itemID INTEGER NOT NULL,
                PRIMARY KEY (kind, key, itemID)
            ) WITHOUT ROWID;
            CREATE TABLE tagCounts (
                tag TEXT NOT NULL PRIMARY KEY,
                posts INTEGER NOT NULL CHECK (posts >= 0)
            ) WITHOUT ROWID;
            INSERT INTO tagCounts (tag, posts) SELECT tag, count(*) FROM postTags GROUP BY tag;
            CREATE TRIGGER tagCounts_insert AFTER INSERT ON postTags BEGIN
                INSERT INTO tagCounts (tag, posts) VALUES (new.tag, 1) ON CONFLICT (tag) DO UPDATE SET posts = posts + 1;
            END;
            CREATE TRIGGER tagCounts_delete AFTER DELETE ON postTags BEGIN
                UPDATE tagCounts SET posts = posts - 1 WHERE tag = old.tag;
            END;

            """
        for item in named {
            let insert = "INSERT OR IGNORE INTO nameKeys (kind, key, itemID) SELECT '\(item.kind)', key, new.id FROM (\(sqliteKeys(item, of: "new")));"
            let delete = "DELETE FROM nameKeys WHERE kind = '\(item.kind)' AND itemID = old.id AND key IN (\(sqliteKeys(item, of: "old")));"
            let columns = [item.name] + (item.username.map { [$0] } ?? [])
            sql += """
                INSERT OR IGNORE INTO nameKeys (kind, key, itemID)
                    SELECT '\(item.kind)', key, itemID FROM (\(sqliteSuffixes("\(item.table).\(item.name)", from: item.table)));
                \(item.username.map { "INSERT OR IGNORE INTO nameKeys (kind, key, itemID) SELECT '\(item.kind)', \($0), id FROM \(item.table);" } ?? "")
                CREATE TRIGGER \(item.table)_nameKeys_insert AFTER INSERT ON \(item.table) BEGIN \(insert) END;
                CREATE TRIGGER \(item.table)_nameKeys_update AFTER UPDATE OF \(columns.joined(separator: ", ")) ON \(item.table)
                    WHEN \(columns.map { "old.\($0) IS NOT new.\($0)" }.joined(separator: " OR ")) BEGIN \(delete) \(insert) END;
                CREATE TRIGGER \(item.table)_nameKeys_delete AFTER DELETE ON \(item.table) BEGIN \(delete) END;

                """
        }
        return sql
    }()

    static let postgres: String = {
        var sql = """
            CREATE TABLE postGrams (
                gram text COLLATE "C" NOT NULL CHECK (length(gram) = 2),
                postID bigint NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                PRIMARY KEY (gram, postID)
            );
            CREATE INDEX postGrams_post ON postGrams(postID);
            INSERT INTO postGrams (gram, postID)
                SELECT DISTINCT substr(body, position, 2), id FROM posts, generate_series(1, char_length(body) - 1) AS position
                WHERE ascii(substr(body, position, 1)) BETWEEN 44032 AND 55203 AND ascii(substr(body, position + 1, 1)) BETWEEN 44032 AND 55203;
            CREATE TABLE nameKeys (
                kind text NOT NULL CHECK (kind IN ('user', 'crew', 'meetup')),
                key text COLLATE "C" NOT NULL,
                itemID bigint NOT NULL,
                PRIMARY KEY (kind, key, itemID)
            );
            CREATE TABLE tagCounts (
                tag text COLLATE "C" NOT NULL PRIMARY KEY,
                posts bigint NOT NULL CHECK (posts >= 0)
            );
            INSERT INTO tagCounts (tag, posts) SELECT tag, count(*) FROM postTags GROUP BY tag;
            CREATE FUNCTION tagCounts_keep() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'INSERT' THEN
                    INSERT INTO tagCounts (tag, posts) VALUES (NEW.tag, 1) ON CONFLICT (tag) DO UPDATE SET posts = tagCounts.posts + 1;
                ELSE
                    UPDATE tagCounts SET posts = posts - 1 WHERE tag = OLD.tag;
                END IF;
                RETURN NULL;
            END $$;
            CREATE TRIGGER tagCounts_keep AFTER INSERT OR DELETE ON postTags FOR EACH ROW EXECUTE FUNCTION tagCounts_keep();
            -- The suffixes of a name, lower-cased as SQLite's lower() does: ASCII letters only.
            CREATE FUNCTION name_suffixes(name text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
                SELECT substr(lower(name COLLATE "C"), position) FROM generate_series(1, char_length(name)) AS position
                WHERE substr(name, position, 1) <> ' '
            $$;

            """
        for item in named {
            let keys = { (row: String) in
                "SELECT name_suffixes(\(row).\(item.name)) AS key" + (item.username.map { " UNION SELECT \(row).\($0)::text" } ?? "")
            }
            let columns = [item.name] + (item.username.map { [$0] } ?? [])
            sql += """
                INSERT INTO nameKeys (kind, key, itemID)
                    SELECT '\(item.kind)', keys.key, \(item.table).id FROM \(item.table), LATERAL (\(keys(item.table))) AS keys ON CONFLICT DO NOTHING;
                CREATE FUNCTION \(item.table)_nameKeys() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP IN ('UPDATE', 'DELETE') THEN
                        DELETE FROM nameKeys WHERE kind = '\(item.kind)' AND itemID = OLD.id AND key IN (\(keys("OLD")));
                    END IF;
                    IF TG_OP IN ('INSERT', 'UPDATE') THEN
                        INSERT INTO nameKeys (kind, key, itemID) SELECT '\(item.kind)', keys.key, NEW.id FROM (\(keys("NEW"))) AS keys ON CONFLICT DO NOTHING;
                    END IF;
                    RETURN NULL;
                END $$;
                CREATE TRIGGER \(item.table)_nameKeys AFTER INSERT OR DELETE ON \(item.table) FOR EACH ROW EXECUTE FUNCTION \(item.table)_nameKeys();
                CREATE TRIGGER \(item.table)_nameKeys_update AFTER UPDATE OF \(columns.joined(separator: ", ")) ON \(item.table) FOR EACH ROW
                    WHEN (\(columns.map { "OLD.\($0) IS DISTINCT FROM NEW.\($0)" }.joined(separator: " OR "))) EXECUTE FUNCTION \(item.table)_nameKeys();

                """
        }
        return sql
    }()
}

extension Migrations {
    /// The tables, then each stored post's Hangul pairs (SQLite has no way to list them in SQL).
    /// The Hangul pairs of the posts already written (SQLite's sites, which hold posts from
    /// before this migration).
    static func fillPostGrams(_ db: Database) throws {
        let posts = try Row.fetchCursor(db, sql: "SELECT id, body FROM posts")
        let insert = try db.makeStatement(sql: "INSERT INTO postGrams (gram, postID) VALUES (?, ?)")
        while let post = try posts.next() {
            let id: Int64 = post[0]
            for gram in SearchText.hangulPairs(in: post[1]) { try insert.execute(arguments: [gram, id]) }
        }
    }
}
