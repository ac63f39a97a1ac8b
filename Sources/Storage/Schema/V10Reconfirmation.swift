import Foundation
import GRDB

extension Migrations {
    /// When the host moves a meetup far or elsewhere, people going must confirm by `confirmBy`.
    static func addReconfirmation(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE meetupApplications ADD COLUMN confirmBy DATETIME;
            CREATE INDEX meetupApplications_confirmBy ON meetupApplications(confirmBy) WHERE confirmBy IS NOT NULL;

            CREATE TABLE notificationsNew (
                id INTEGER PRIMARY KEY,
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (kind IN ('follow', 'comment', 'reply', 'mention', 'crewRequest', 'crewAccepted', 'crewRejected',
                    'meetupApplied', 'meetupAccepted', 'meetupRejected', 'meetupPromoted', 'meetupChanged',
                    'meetupConfirm', 'meetupUnconfirmed', 'meetupLotteryWon', 'meetupLotteryLost')),
                actorID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                postID INTEGER REFERENCES posts(id) ON DELETE CASCADE,
                commentID INTEGER REFERENCES comments(id) ON DELETE CASCADE,
                crewID INTEGER REFERENCES crews(id) ON DELETE CASCADE,
                meetupID INTEGER REFERENCES meetups(id) ON DELETE CASCADE,
                detail TEXT NOT NULL DEFAULT '',
                createdAt DATETIME NOT NULL,
                readAt DATETIME
            );
            INSERT INTO notificationsNew (id, userID, kind, actorID, postID, commentID, crewID, meetupID, detail, createdAt, readAt)
                SELECT id, userID, kind, actorID, postID, commentID, crewID, meetupID, detail, createdAt, readAt FROM notifications;
            DROP TABLE notifications;
            ALTER TABLE notificationsNew RENAME TO notifications;
            CREATE INDEX notifications_user ON notifications(userID, id);
            """)
    }
}
