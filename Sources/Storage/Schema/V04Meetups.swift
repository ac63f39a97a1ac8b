import Foundation
import GRDB

extension Migrations {
    static func createMeetups(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE meetups (
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
                signupMode TEXT NOT NULL CHECK (signupMode IN ('firstCome', 'approval')),
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
                CHECK (minAge IS NULL OR maxAge IS NULL OR minAge <= maxAge)
            );
            CREATE INDEX meetups_start ON meetups(startsAt, id);
            CREATE INDEX meetups_crew ON meetups(crewID, startsAt) WHERE crewID IS NOT NULL;

            CREATE TABLE meetupApplications (
                id INTEGER PRIMARY KEY,
                meetupID INTEGER NOT NULL REFERENCES meetups(id) ON DELETE CASCADE,
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                status TEXT NOT NULL CHECK (status IN ('accepted', 'pending', 'waitlisted', 'rejected', 'cancelled')),
                -- The waitlist is served in this order.
                queuedAt DATETIME NOT NULL,
                attended BOOLEAN,
                UNIQUE (meetupID, userID)
            );
            CREATE INDEX meetupApplications_user ON meetupApplications(userID, status);

            CREATE TABLE meetupTalk (
                id INTEGER PRIMARY KEY,
                meetupID INTEGER NOT NULL REFERENCES meetups(id) ON DELETE CASCADE,
                authorID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                body TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
                bodyHTML TEXT NOT NULL,
                createdAt DATETIME NOT NULL
            );
            CREATE INDEX meetupTalk_meetup ON meetupTalk(meetupID, id);

            CREATE TABLE meetupBookmarks (
                id INTEGER PRIMARY KEY,
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                meetupID INTEGER NOT NULL REFERENCES meetups(id) ON DELETE CASCADE,
                createdAt DATETIME NOT NULL,
                UNIQUE (userID, meetupID)
            );

            -- A private token naming a member's calendar feed of the meetups they go to.
            ALTER TABLE users ADD COLUMN calendarToken TEXT;
            CREATE UNIQUE INDEX users_calendarToken ON users(calendarToken) WHERE calendarToken IS NOT NULL;

            CREATE TABLE notificationsNew (
                id INTEGER PRIMARY KEY,
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (kind IN ('follow', 'comment', 'reply', 'mention', 'crewRequest', 'crewAccepted', 'crewRejected',
                    'meetupApplied', 'meetupAccepted', 'meetupRejected', 'meetupPromoted', 'meetupChanged')),
                actorID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                postID INTEGER REFERENCES posts(id) ON DELETE CASCADE,
                commentID INTEGER REFERENCES comments(id) ON DELETE CASCADE,
                crewID INTEGER REFERENCES crews(id) ON DELETE CASCADE,
                meetupID INTEGER REFERENCES meetups(id) ON DELETE CASCADE,
                detail TEXT NOT NULL DEFAULT '',
                createdAt DATETIME NOT NULL,
                readAt DATETIME
            );
            INSERT INTO notificationsNew (id, userID, kind, actorID, postID, commentID, crewID, createdAt, readAt)
                SELECT id, userID, kind, actorID, postID, commentID, crewID, createdAt, readAt FROM notifications;
            DROP TABLE notifications;
            ALTER TABLE notificationsNew RENAME TO notifications;
            CREATE INDEX notifications_user ON notifications(userID, id);
            """)
    }
}
