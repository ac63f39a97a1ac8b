/// Each member's home feed as rows of its own, kept by triggers: a post is added to the
/// timelines of its author, the author's followers and (a crew post) the crew's members;
/// following someone or joining a crew adds their posts; unfollowing or leaving removes
/// those no other reason keeps. Reading a feed is then one index range, whatever the number
/// of followees (measured in the README). The read checks each row's reason again, so a row a
/// trigger missed can never show a post to someone it was not meant for. The triggers are
/// each engine's own (PostgreSQL's in PL/pgSQL); what they do is the same.
enum TimelinesSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        CREATE TABLE timeline (
            userID \(t.integer) NOT NULL,
            postID \(t.integer) NOT NULL,
            PRIMARY KEY (userID, postID)
        )\(t.withoutRowID);

        \(t.isPostgres ? postgresTriggers : sqliteTriggers)

        \(t.insertOrIgnore) timeline (userID, postID) SELECT authorID, id FROM posts\(t.orIgnore);
        \(t.insertOrIgnore) timeline (userID, postID)
            SELECT follows.followerID, posts.id FROM follows JOIN posts ON posts.authorID = follows.followeeID\(t.orIgnore);
        \(t.insertOrIgnore) timeline (userID, postID)
            SELECT crewMembers.userID, posts.id FROM crewMembers JOIN posts ON posts.crewID = crewMembers.crewID
            WHERE crewMembers.role != 'pending'\(t.orIgnore);
        """
    }

    private static let sqliteTriggers = """
        CREATE TRIGGER timeline_post_insert AFTER INSERT ON posts BEGIN
            INSERT OR IGNORE INTO timeline (userID, postID)
                SELECT new.authorID, new.id
                UNION SELECT followerID, new.id FROM follows WHERE followeeID = new.authorID
                UNION SELECT userID, new.id FROM crewMembers WHERE crewID = new.crewID AND role != 'pending';
        END;
        CREATE TRIGGER timeline_post_delete AFTER DELETE ON posts BEGIN
            DELETE FROM timeline WHERE postID = old.id AND userID IN (
                SELECT old.authorID
                UNION SELECT followerID FROM follows WHERE followeeID = old.authorID
                UNION SELECT userID FROM crewMembers WHERE crewID = old.crewID);
        END;

        CREATE TRIGGER timeline_follow AFTER INSERT ON follows BEGIN
            INSERT OR IGNORE INTO timeline (userID, postID)
                SELECT new.followerID, id FROM posts WHERE authorID = new.followeeID;
        END;
        CREATE TRIGGER timeline_unfollow AFTER DELETE ON follows BEGIN
            DELETE FROM timeline WHERE userID = old.followerID AND postID IN (
                SELECT id FROM posts WHERE authorID = old.followeeID AND (crewID IS NULL OR crewID NOT IN (
                    SELECT crewID FROM crewMembers WHERE userID = old.followerID AND role != 'pending')));
        END;

        CREATE TRIGGER timeline_crew_join AFTER INSERT ON crewMembers WHEN new.role != 'pending' BEGIN
            INSERT OR IGNORE INTO timeline (userID, postID) SELECT new.userID, id FROM posts WHERE crewID = new.crewID;
        END;
        CREATE TRIGGER timeline_crew_accept AFTER UPDATE OF role ON crewMembers
        WHEN old.role = 'pending' AND new.role != 'pending' BEGIN
            INSERT OR IGNORE INTO timeline (userID, postID) SELECT new.userID, id FROM posts WHERE crewID = new.crewID;
        END;
        CREATE TRIGGER timeline_crew_leave AFTER DELETE ON crewMembers WHEN old.role != 'pending' BEGIN
            DELETE FROM timeline WHERE userID = old.userID AND postID IN (
                SELECT id FROM posts WHERE crewID = old.crewID AND authorID != old.userID AND authorID NOT IN (
                    SELECT followeeID FROM follows WHERE followerID = old.userID));
        END;

        CREATE TRIGGER timeline_user_delete AFTER DELETE ON users BEGIN
            DELETE FROM timeline WHERE userID = old.id;
        END;
        """

    private static let postgresTriggers = """
        CREATE FUNCTION timeline_post_insert() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO timeline (userID, postID)
                SELECT NEW.authorID, NEW.id
                UNION SELECT followerID, NEW.id FROM follows WHERE followeeID = NEW.authorID
                UNION SELECT userID, NEW.id FROM crewMembers WHERE crewID = NEW.crewID AND role != 'pending'
            ON CONFLICT DO NOTHING;
            RETURN NULL;
        END $$;
        CREATE TRIGGER timeline_post_insert AFTER INSERT ON posts FOR EACH ROW EXECUTE FUNCTION timeline_post_insert();

        CREATE FUNCTION timeline_post_delete() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM timeline WHERE postID = OLD.id AND userID IN (
                SELECT OLD.authorID
                UNION SELECT followerID FROM follows WHERE followeeID = OLD.authorID
                UNION SELECT userID FROM crewMembers WHERE crewID = OLD.crewID);
            RETURN NULL;
        END $$;
        CREATE TRIGGER timeline_post_delete AFTER DELETE ON posts FOR EACH ROW EXECUTE FUNCTION timeline_post_delete();

        CREATE FUNCTION timeline_follow() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO timeline (userID, postID) SELECT NEW.followerID, id FROM posts WHERE authorID = NEW.followeeID
            ON CONFLICT DO NOTHING;
            RETURN NULL;
        END $$;
        CREATE TRIGGER timeline_follow AFTER INSERT ON follows FOR EACH ROW EXECUTE FUNCTION timeline_follow();

        CREATE FUNCTION timeline_unfollow() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM timeline WHERE userID = OLD.followerID AND postID IN (
                SELECT id FROM posts WHERE authorID = OLD.followeeID AND (crewID IS NULL OR crewID NOT IN (
                    SELECT crewID FROM crewMembers WHERE userID = OLD.followerID AND role != 'pending')));
            RETURN NULL;
        END $$;
        CREATE TRIGGER timeline_unfollow AFTER DELETE ON follows FOR EACH ROW EXECUTE FUNCTION timeline_unfollow();

        CREATE FUNCTION timeline_crew_join() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO timeline (userID, postID) SELECT NEW.userID, id FROM posts WHERE crewID = NEW.crewID
            ON CONFLICT DO NOTHING;
            RETURN NULL;
        END $$;
        CREATE TRIGGER timeline_crew_join AFTER INSERT ON crewMembers
            FOR EACH ROW WHEN (NEW.role != 'pending') EXECUTE FUNCTION timeline_crew_join();
        CREATE TRIGGER timeline_crew_accept AFTER UPDATE OF role ON crewMembers
            FOR EACH ROW WHEN (OLD.role = 'pending' AND NEW.role != 'pending') EXECUTE FUNCTION timeline_crew_join();

        CREATE FUNCTION timeline_crew_leave() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM timeline WHERE userID = OLD.userID AND postID IN (
                SELECT id FROM posts WHERE crewID = OLD.crewID AND authorID != OLD.userID AND authorID NOT IN (
                    SELECT followeeID FROM follows WHERE followerID = OLD.userID));
            RETURN NULL;
        END $$;
        CREATE TRIGGER timeline_crew_leave AFTER DELETE ON crewMembers
            FOR EACH ROW WHEN (OLD.role != 'pending') EXECUTE FUNCTION timeline_crew_leave();

        CREATE FUNCTION timeline_user_delete() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM timeline WHERE userID = OLD.id;
            RETURN NULL;
        END $$;
        CREATE TRIGGER timeline_user_delete AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION timeline_user_delete();
        """
}
