import Foundation
import GRDB

extension Migrations {
    /// A code the host shows at the start; five wrong codes lock a person's check-in.
    static func addCheckIn(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE meetups ADD COLUMN checkinCode TEXT CHECK (checkinCode IS NULL OR length(checkinCode) = 6);
            CREATE TABLE checkinAttempts (
                meetupID INTEGER NOT NULL REFERENCES meetups(id) ON DELETE CASCADE,
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                failures INTEGER NOT NULL DEFAULT 0 CHECK (failures BETWEEN 0 AND 5),
                PRIMARY KEY (meetupID, userID)
            ) WITHOUT ROWID;
            """)
    }
}
