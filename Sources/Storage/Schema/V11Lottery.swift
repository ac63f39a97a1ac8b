import Foundation
import GRDB

extension Migrations {
    /// A third signup mode: a draw at the deadline, committed to by the SHA-256 of a secret
    /// seed shown from the start and revealed at the draw. SQLite cannot change a CHECK, so
    /// the table is rebuilt (GRDB checks foreign keys after the migration).
    static func addLottery(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE meetupsNew (
                id INTEGER PRIMARY KEY,
                hostID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                crewID INTEGER REFERENCES crews(id) ON DELETE CASCADE,
                crewOnly BOOLEAN NOT NULL DEFAULT 0 CHECK (crewOnly = 0 OR crewID IS NOT NULL),
                title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 60),
                description TEXT NOT NULL DEFAULT '' CHECK (length(description) <= 5000),
                descriptionHTML TEXT NOT NULL DEFAULT '',
                startsAt DATETIME NOT NULL,
                durationMinutes INTEGER NOT NULL CHECK (durationMinutes BETWEEN 10 AND 1440),
                placeName TEXT NOT NULL CHECK (length(placeName) BETWEEN 1 AND 100),
                address TEXT NOT NULL DEFAULT '' CHECK (length(address) <= 200),
                latitude REAL CHECK (latitude IS NULL OR latitude BETWEEN -90 AND 90),
                longitude REAL CHECK (longitude IS NULL OR longitude BETWEEN -180 AND 180),
                placeNote TEXT NOT NULL DEFAULT '' CHECK (length(placeNote) <= 200),
                region TEXT CHECK (length(region) <= 30),
                timeSlot TEXT NOT NULL CHECK (timeSlot IN ('beforeWork', 'afterWork', 'weekend')),
                distanceKm REAL CHECK (distanceKm IS NULL OR distanceKm BETWEEN 0.1 AND 300),
                pace TEXT NOT NULL CHECK (pace IN ('beginner', 'average', 'fast', 'elite')),
                style TEXT NOT NULL CHECK (style IN ('walk', 'jog', 'run', 'interval')),
                capacity INTEGER NOT NULL CHECK (capacity BETWEEN 1 AND 1000),
                signupMode TEXT NOT NULL CHECK (signupMode IN ('firstCome', 'approval', 'lottery')),
                deadline DATETIME NOT NULL,
                afterParty BOOLEAN NOT NULL DEFAULT 0,
                genderRule TEXT NOT NULL DEFAULT 'any' CHECK (genderRule IN ('any', 'female', 'male')),
                minAge INTEGER CHECK (minAge IS NULL OR minAge BETWEEN 10 AND 100),
                maxAge INTEGER CHECK (maxAge IS NULL OR maxAge BETWEEN 10 AND 100),
                jobs TEXT NOT NULL DEFAULT '',
                -- Nobody is accepted past capacity, whatever the race.
                acceptedCount INTEGER NOT NULL DEFAULT 0 CHECK (acceptedCount BETWEEN 0 AND capacity),
                closedAt DATETIME,
                sequence INTEGER NOT NULL DEFAULT 0,
                createdAt DATETIME NOT NULL,
                updatedAt DATETIME NOT NULL,
                hiddenAt DATETIME,
                -- The draw's secret seed (shown once drawn), its SHA-256 (shown from the start).
                lotterySeed TEXT CHECK (lotterySeed IS NULL OR length(lotterySeed) BETWEEN 16 AND 100),
                lotteryCommitment TEXT CHECK (lotteryCommitment IS NULL OR length(lotteryCommitment) = 64),
                drawnAt DATETIME,
                -- The entrants' usernames in drawn order, comma-separated.
                lotteryResult TEXT,
                CHECK (minAge IS NULL OR maxAge IS NULL OR minAge <= maxAge),
                CHECK (signupMode != 'lottery' OR (lotterySeed IS NOT NULL AND lotteryCommitment IS NOT NULL))
            );
            INSERT INTO meetupsNew (id, hostID, crewID, crewOnly, title, description, descriptionHTML, startsAt, durationMinutes,
                placeName, address, latitude, longitude, placeNote, region, timeSlot, distanceKm, pace, style, capacity, signupMode,
                deadline, afterParty, genderRule, minAge, maxAge, jobs, acceptedCount, closedAt, sequence, createdAt, updatedAt, hiddenAt)
            SELECT id, hostID, crewID, crewOnly, title, description, descriptionHTML, startsAt, durationMinutes,
                placeName, address, latitude, longitude, placeNote, region, timeSlot, distanceKm, pace, style, capacity, signupMode,
                deadline, afterParty, genderRule, minAge, maxAge, jobs, acceptedCount, closedAt, sequence, createdAt, updatedAt, hiddenAt
            FROM meetups;
            DROP TABLE meetups;
            ALTER TABLE meetupsNew RENAME TO meetups;
            CREATE INDEX meetups_start ON meetups(startsAt, id);
            CREATE INDEX meetups_crew ON meetups(crewID, startsAt) WHERE crewID IS NOT NULL;
            CREATE INDEX meetups_draw ON meetups(deadline) WHERE signupMode = 'lottery' AND drawnAt IS NULL;
            """)
    }
}
