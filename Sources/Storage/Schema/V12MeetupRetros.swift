import Foundation
import GRDB

extension Migrations {
    /// A retrospective belongs to a crew or (one per meetup) to a meetup; the table is rebuilt
    /// to let `crewID` be empty.
    static func addMeetupRetros(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE retrosNew (
                id INTEGER PRIMARY KEY,
                crewID INTEGER REFERENCES crews(id) ON DELETE CASCADE,
                meetupID INTEGER REFERENCES meetups(id) ON DELETE CASCADE,
                name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
                startsAt DATETIME NOT NULL,
                closedAt DATETIME,
                createdBy INTEGER REFERENCES users(id) ON DELETE SET NULL,
                createdAt DATETIME NOT NULL,
                CHECK ((crewID IS NULL) != (meetupID IS NULL))
            );
            INSERT INTO retrosNew (id, crewID, name, startsAt, closedAt, createdBy, createdAt)
                SELECT id, crewID, name, startsAt, closedAt, createdBy, createdAt FROM retros;
            DROP TABLE retros;
            ALTER TABLE retrosNew RENAME TO retros;
            CREATE INDEX retros_crew ON retros(crewID, startsAt) WHERE crewID IS NOT NULL;
            CREATE UNIQUE INDEX retros_meetup ON retros(meetupID) WHERE meetupID IS NOT NULL;
            """)
    }
}
