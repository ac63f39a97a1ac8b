import Foundation
import GRDB

extension Migrations {
    static func createTimelines(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE timeline (
                userID INTEGER NOT NULL,
                postID INTEGER NOT NULL,
                PRIMARY KEY (userID, postID)
            ) WITHOUT ROWID;

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

            INSERT OR IGNORE INTO timeline (userID, postID) SELECT authorID, id FROM posts;
            INSERT OR IGNORE INTO timeline (userID, postID)
                SELECT follows.followerID, posts.id FROM follows JOIN posts ON posts.authorID = follows.followeeID;
            INSERT OR IGNORE INTO timeline (userID, postID)
                SELECT crewMembers.userID, posts.id FROM crewMembers JOIN posts ON posts.crewID = crewMembers.crewID
                WHERE crewMembers.role != 'pending';
            """)
    }
}
