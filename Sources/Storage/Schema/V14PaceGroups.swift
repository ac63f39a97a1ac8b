import Foundation
import GRDB

extension Migrations {
    /// Groups inside one meetup, each with its own capacity (kept by its own CHECK) and waitlist.
    static func addPaceGroups(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE meetupGroups (
                id INTEGER PRIMARY KEY,
                meetupID INTEGER NOT NULL REFERENCES meetups(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                label TEXT NOT NULL CHECK (length(label) BETWEEN 1 AND 20),
                capacity INTEGER NOT NULL CHECK (capacity BETWEEN 1 AND 1000),
                leaderID INTEGER REFERENCES users(id) ON DELETE SET NULL,
                acceptedCount INTEGER NOT NULL DEFAULT 0 CHECK (acceptedCount BETWEEN 0 AND capacity)
            );
            CREATE INDEX meetupGroups_meetup ON meetupGroups(meetupID, position);
            ALTER TABLE meetupApplications ADD COLUMN groupID INTEGER REFERENCES meetupGroups(id) ON DELETE SET NULL;
            """)
    }
}
