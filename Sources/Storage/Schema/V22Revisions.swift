/// A revision number on every post and comment that changes with anything a card shows of it
/// but its counts: its text, its edit, hide and delete times, its photos, its author's names
/// and role. Feeds and threads then read numbers for each item (`KeptRows`) and read an item's
/// text only when its revision is one they have not kept — on this server or on another
/// sharing the database, as the number lives in the row.
///
/// A new row's revision starts at a random number: SQLite gives a new row the id of the
/// newest deleted one, and the new row must not pass for what was kept of the old. Revisions
/// count up from there by one, far from overflowing. The rename trigger reaches an author's
/// comments through a new index, which a member's deletion (cascading to their comments)
/// wanted already; a thread reads its comments' revisions from its own index.
enum RevisionsSchema {
    /// The triggers are each engine's own (PostgreSQL's in PL/pgSQL); what they do is the same.
    static func sql(_ t: SchemaDialect) -> String {
        t.isPostgres ? postgres : sqlite
    }

    private static let indexes = """
        CREATE INDEX comments_author ON comments(authorID);
        DROP INDEX comments_post;
        CREATE INDEX comments_post ON comments(postID, id, revision);
        """

    /// What a card shows of each, but its counts.
    private static let postColumns = ["authorID", "body", "bodyHTML", "createdAt", "updatedAt", "crewID", "hiddenAt", "commentsLocked"]
    private static let commentColumns = ["postID", "authorID", "parentID", "depth", "body", "bodyHTML", "createdAt", "updatedAt", "deletedAt", "hiddenAt"]
    private static let authorColumns = ["username", "displayName", "role"]

    /// True when any of `columns` differs (`IS NOT` in SQLite, `IS DISTINCT FROM` in PostgreSQL: NULL equals NULL).
    private static func changed(_ columns: [String], _ engine: SQLConnection.Engine = .sqlite) -> String {
        let differs = engine == .postgres ? "IS DISTINCT FROM" : "IS NOT"
        return columns.map { "OLD.\($0) \(differs) NEW.\($0)" }.joined(separator: " OR ")
    }

    private static let sqlite = """
        ALTER TABLE posts ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE comments ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
        \(indexes)
        CREATE TRIGGER posts_revision_start AFTER INSERT ON posts BEGIN
            UPDATE posts SET revision = random() >> 2 WHERE id = NEW.id;
        END;
        CREATE TRIGGER comments_revision_start AFTER INSERT ON comments BEGIN
            UPDATE comments SET revision = random() >> 2 WHERE id = NEW.id;
        END;
        CREATE TRIGGER posts_revised AFTER UPDATE ON posts WHEN \(changed(postColumns)) BEGIN
            UPDATE posts SET revision = revision + 1 WHERE id = NEW.id;
        END;
        CREATE TRIGGER comments_revised AFTER UPDATE ON comments WHEN \(changed(commentColumns)) BEGIN
            UPDATE comments SET revision = revision + 1 WHERE id = NEW.id;
        END;
        CREATE TRIGGER photos_added AFTER INSERT ON photos BEGIN
            UPDATE posts SET revision = revision + 1 WHERE id = NEW.postID;
        END;
        CREATE TRIGGER photos_changed AFTER UPDATE ON photos BEGIN
            UPDATE posts SET revision = revision + 1 WHERE id IN (OLD.postID, NEW.postID);
        END;
        CREATE TRIGGER photos_removed AFTER DELETE ON photos BEGIN
            UPDATE posts SET revision = revision + 1 WHERE id = OLD.postID;
        END;
        CREATE TRIGGER authors_renamed AFTER UPDATE ON users WHEN \(changed(authorColumns)) BEGIN
            UPDATE posts SET revision = revision + 1 WHERE authorID = NEW.id;
            UPDATE comments SET revision = revision + 1 WHERE authorID = NEW.id;
        END;
        """

    private static let postgres = """
        ALTER TABLE posts ADD COLUMN revision bigint NOT NULL DEFAULT 0;
        ALTER TABLE comments ADD COLUMN revision bigint NOT NULL DEFAULT 0;
        \(indexes)
        CREATE FUNCTION revision_start() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            NEW.revision := floor(random() * 2305843009213693952)::bigint;
            RETURN NEW;
        END $$;
        CREATE TRIGGER posts_revision_start BEFORE INSERT ON posts FOR EACH ROW EXECUTE FUNCTION revision_start();
        CREATE TRIGGER comments_revision_start BEFORE INSERT ON comments FOR EACH ROW EXECUTE FUNCTION revision_start();

        CREATE FUNCTION revision_next() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            NEW.revision := OLD.revision + 1;
            RETURN NEW;
        END $$;
        CREATE TRIGGER posts_revised BEFORE UPDATE ON posts
            FOR EACH ROW WHEN (\(changed(postColumns, .postgres)))
            EXECUTE FUNCTION revision_next();
        CREATE TRIGGER comments_revised BEFORE UPDATE ON comments
            FOR EACH ROW WHEN (\(changed(commentColumns, .postgres)))
            EXECUTE FUNCTION revision_next();

        CREATE FUNCTION photos_revise_post() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP != 'INSERT' THEN UPDATE posts SET revision = revision + 1 WHERE id = OLD.postID; END IF;
            IF TG_OP != 'DELETE' THEN UPDATE posts SET revision = revision + 1 WHERE id = NEW.postID; END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER photos_revise_post AFTER INSERT OR UPDATE OR DELETE ON photos FOR EACH ROW EXECUTE FUNCTION photos_revise_post();

        CREATE FUNCTION authors_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE posts SET revision = revision + 1 WHERE authorID = NEW.id;
            UPDATE comments SET revision = revision + 1 WHERE authorID = NEW.id;
            RETURN NULL;
        END $$;
        CREATE TRIGGER authors_renamed AFTER UPDATE ON users
            FOR EACH ROW WHEN (\(changed(authorColumns, .postgres)))
            EXECUTE FUNCTION authors_renamed();
        """
}
