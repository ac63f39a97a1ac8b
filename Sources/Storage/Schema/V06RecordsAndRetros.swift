import Foundation
import GRDB

extension Migrations {
    static func createRecordsAndRetros(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE records (
                id INTEGER PRIMARY KEY,
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                startedAt DATETIME NOT NULL,
                distanceMeters INTEGER NOT NULL CHECK (distanceMeters BETWEEN 1 AND 1000000),
                durationSeconds INTEGER NOT NULL CHECK (durationSeconds BETWEEN 1 AND 360000),
                elevationGain INTEGER NOT NULL DEFAULT 0 CHECK (elevationGain BETWEEN 0 AND 20000),
                note TEXT NOT NULL DEFAULT '' CHECK (length(note) <= 2000),
                noteHTML TEXT NOT NULL DEFAULT '',
                visibility TEXT NOT NULL CHECK (visibility IN ('public', 'crew', 'private')),
                meetupID INTEGER REFERENCES meetups(id) ON DELETE SET NULL,
                -- GPX track: little-endian Float32 latitude, longitude, elevation per point.
                track BLOB,
                createdAt DATETIME NOT NULL
            );
            CREATE INDEX records_user ON records(userID, startedAt);
            ALTER TABLE users ADD COLUMN units TEXT NOT NULL DEFAULT 'km' CHECK (units IN ('km', 'mi'));
            ALTER TABLE users ADD COLUMN onLeaderboard BOOLEAN NOT NULL DEFAULT 0;

            CREATE TABLE retros (
                id INTEGER PRIMARY KEY,
                crewID INTEGER NOT NULL REFERENCES crews(id) ON DELETE CASCADE,
                name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
                startsAt DATETIME NOT NULL,
                closedAt DATETIME,
                createdBy INTEGER REFERENCES users(id) ON DELETE SET NULL,
                createdAt DATETIME NOT NULL
            );
            CREATE INDEX retros_crew ON retros(crewID, startsAt);

            CREATE TABLE retroFeedback (
                id INTEGER PRIMARY KEY,
                retroID INTEGER NOT NULL REFERENCES retros(id) ON DELETE CASCADE,
                authorID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                recipientID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (kind IN ('continue', 'stop')),
                keyword TEXT NOT NULL CHECK (length(keyword) BETWEEN 1 AND 10),
                description TEXT NOT NULL CHECK (length(description) BETWEEN 1 AND 400),
                toStart TEXT NOT NULL DEFAULT '' CHECK (length(toStart) <= 200),
                createdAt DATETIME NOT NULL,
                updatedAt DATETIME NOT NULL,
                CHECK (authorID != recipientID)
            );
            CREATE INDEX retroFeedback_recipient ON retroFeedback(recipientID, retroID);
            CREATE INDEX retroFeedback_author ON retroFeedback(retroID, authorID);
            """)
    }
}
