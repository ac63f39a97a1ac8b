import Foundation
import Formats
import GRDB

/// Named, append-only schema migrations. Never edit a shipped one: add the next.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 users and sessions", migrate: createUsersAndSessions)
        migrator.registerMigration("v2 posts, photos, comments, likes, follows, notifications", migrate: createFeed)
        migrator.registerMigration("v3 crews, members, ledger, crew posts and comments", migrate: createCrews)
        migrator.registerMigration("v4 meetups, applications, talk, meetup bookmarks", migrate: createMeetups)
        migrator.registerMigration("v5 reports, moderation log, hiding, suspensions, blocks", migrate: createModeration)
        migrator.registerMigration("v6 run records, retrospectives", migrate: createRecordsAndRetros)
        migrator.registerMigration("v7 repair tracks with points out of range", migrate: repairTracks)
        migrator.registerMigration("v8 home timelines", migrate: createTimelines)
        migrator.registerMigration("v9 splits of runs", migrate: addSplits)
        migrator.registerMigration("v10 re-confirming places after a move", migrate: addReconfirmation)
        migrator.registerMigration("v11 lottery signup", migrate: addLottery)
        migrator.registerMigration("v12 meetup retrospectives", migrate: addMeetupRetros)
        migrator.registerMigration("v13 self check-in", migrate: addCheckIn)
        migrator.registerMigration("v14 pace groups", migrate: addPaceGroups)
        migrator.registerMigration("v15 email: outbox, tokens, mail settings", migrate: addMail)
        migrator.registerMigration("v16 shared rate limits", migrate: { db in try db.execute(sql: RateEventsSchema.sql(.sqlite)) })
        migrator.registerMigration("v17 photo tones", migrate: { db in try db.execute(sql: PhotoTonesSchema.sql(.sqlite)) })
        migrator.registerMigration("v18 meetup places", migrate: { db in try db.execute(sql: MeetupPlacesSchema.sql) })
        migrator.registerMigration("v19 sign-in providers", migrate: { db in try db.execute(sql: IdentitiesSchema.sql(.sqlite)) })
        migrator.registerMigration("v20 verified workplaces", migrate: { db in try db.execute(sql: WorkplacesSchema.sql(.sqlite)) })
        migrator.registerMigration("v21 unread rows indexed", migrate: { db in try db.execute(sql: UnreadIndexesSchema.sql) })
        migrator.registerMigration("v22 revisions", migrate: { db in try db.execute(sql: RevisionsSchema.sql(.sqlite)) })
        return migrator
    }

    private static func createUsersAndSessions(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE users (
                id INTEGER PRIMARY KEY,
                username TEXT NOT NULL UNIQUE COLLATE NOCASE
                    CHECK (length(username) BETWEEN 3 AND 20 AND username NOT GLOB '*[^a-z0-9_]*'),
                email TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(email) BETWEEN 3 AND 254),
                passwordHash TEXT NOT NULL,
                displayName TEXT NOT NULL CHECK (length(displayName) BETWEEN 1 AND 50),
                bio TEXT NOT NULL DEFAULT '' CHECK (length(bio) <= 500),
                gender TEXT CHECK (gender IN ('female', 'male', 'other')),
                birthYear INTEGER CHECK (birthYear BETWEEN 1900 AND 2100),
                job TEXT CHECK (length(job) <= 30),
                region TEXT CHECK (length(region) <= 30),
                language TEXT CHECK (language IN ('en', 'ko')),
                role TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'moderator', 'admin')),
                createdAt DATETIME NOT NULL
            );

            CREATE TABLE sessions (
                id INTEGER PRIMARY KEY,
                tokenHash BLOB NOT NULL UNIQUE CHECK (length(tokenHash) = 32),
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                csrfToken TEXT NOT NULL,
                createdAt DATETIME NOT NULL,
                lastSeenAt DATETIME NOT NULL
            );
            CREATE INDEX sessions_user ON sessions(userID);
            """)
    }

    private static func createFeed(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE posts (
                id INTEGER PRIMARY KEY,
                authorID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                body TEXT NOT NULL CHECK (length(body) <= 10000),
                bodyHTML TEXT NOT NULL,
                createdAt DATETIME NOT NULL,
                updatedAt DATETIME,
                likeCount INTEGER NOT NULL DEFAULT 0 CHECK (likeCount >= 0),
                commentCount INTEGER NOT NULL DEFAULT 0 CHECK (commentCount >= 0)
            );
            CREATE INDEX posts_author ON posts(authorID, id);

            CREATE TABLE photos (
                id INTEGER PRIMARY KEY,
                postID INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                position INTEGER NOT NULL CHECK (position BETWEEN 0 AND 9),
                fileName TEXT NOT NULL UNIQUE,
                mediaType TEXT NOT NULL CHECK (mediaType IN ('image/jpeg', 'image/png', 'image/webp', 'image/gif')),
                width INTEGER NOT NULL CHECK (width > 0),
                height INTEGER NOT NULL CHECK (height > 0),
                byteCount INTEGER NOT NULL CHECK (byteCount > 0),
                UNIQUE (postID, position)
            );

            CREATE TABLE postTags (
                tag TEXT NOT NULL CHECK (length(tag) BETWEEN 1 AND 200),
                postID INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                PRIMARY KEY (tag, postID)
            ) WITHOUT ROWID;
            CREATE INDEX postTags_post ON postTags(postID);

            CREATE TABLE likes (
                postID INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                createdAt DATETIME NOT NULL,
                PRIMARY KEY (postID, userID)
            ) WITHOUT ROWID;
            CREATE INDEX likes_user ON likes(userID, postID);

            CREATE TABLE bookmarks (
                id INTEGER PRIMARY KEY,
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                postID INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                createdAt DATETIME NOT NULL,
                UNIQUE (userID, postID)
            );

            CREATE TABLE follows (
                followerID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                followeeID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                createdAt DATETIME NOT NULL,
                PRIMARY KEY (followerID, followeeID),
                CHECK (followerID != followeeID)
            ) WITHOUT ROWID;
            CREATE INDEX follows_followee ON follows(followeeID, followerID);

            CREATE TABLE comments (
                id INTEGER PRIMARY KEY,
                postID INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                authorID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                parentID INTEGER REFERENCES comments(id) ON DELETE CASCADE,
                depth INTEGER NOT NULL CHECK (depth BETWEEN 0 AND 4),
                body TEXT NOT NULL CHECK (length(body) <= 5000),
                bodyHTML TEXT NOT NULL,
                createdAt DATETIME NOT NULL,
                updatedAt DATETIME,
                deletedAt DATETIME
            );
            CREATE INDEX comments_post ON comments(postID, id);
            CREATE INDEX comments_parent ON comments(parentID);

            CREATE TABLE notifications (
                id INTEGER PRIMARY KEY,
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (kind IN ('follow', 'comment', 'reply', 'mention')),
                actorID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                postID INTEGER REFERENCES posts(id) ON DELETE CASCADE,
                commentID INTEGER REFERENCES comments(id) ON DELETE CASCADE,
                createdAt DATETIME NOT NULL,
                readAt DATETIME
            );
            CREATE INDEX notifications_user ON notifications(userID, id);

            -- Trigram tokens find any substring of 3+ characters, Hangul included, where the
            -- default unicode61 tokenizer would only match whole space-separated words.
            CREATE VIRTUAL TABLE postSearch USING fts5(body, content='posts', content_rowid='id', tokenize='trigram');
            CREATE TRIGGER posts_search_insert AFTER INSERT ON posts BEGIN
                INSERT INTO postSearch(rowid, body) VALUES (new.id, new.body);
            END;
            CREATE TRIGGER posts_search_delete AFTER DELETE ON posts BEGIN
                INSERT INTO postSearch(postSearch, rowid, body) VALUES ('delete', old.id, old.body);
            END;
            CREATE TRIGGER posts_search_update AFTER UPDATE OF body ON posts BEGIN
                INSERT INTO postSearch(postSearch, rowid, body) VALUES ('delete', old.id, old.body);
                INSERT INTO postSearch(rowid, body) VALUES (new.id, new.body);
            END;
            """)
    }

    private static func createCrews(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE crews (
                id INTEGER PRIMARY KEY,
                slug TEXT NOT NULL UNIQUE CHECK (length(slug) BETWEEN 2 AND 40 AND slug NOT GLOB '*[^a-z0-9-]*'),
                name TEXT NOT NULL CHECK (length(name) BETWEEN 2 AND 60),
                sport TEXT NOT NULL CHECK (sport IN ('running', 'trail', 'cycling', 'basketball', 'hiking', 'other')),
                region TEXT CHECK (length(region) <= 30),
                description TEXT NOT NULL DEFAULT '' CHECK (length(description) <= 5000),
                descriptionHTML TEXT NOT NULL DEFAULT '',
                coverFileName TEXT,
                coverWidth INTEGER,
                coverHeight INTEGER,
                meetingTime TEXT NOT NULL DEFAULT '' CHECK (length(meetingTime) <= 100),
                meetingPlace TEXT NOT NULL DEFAULT '' CHECK (length(meetingPlace) <= 100),
                feeAmount INTEGER NOT NULL DEFAULT 0 CHECK (feeAmount BETWEEN 0 AND 100000000),
                feeCurrency TEXT NOT NULL DEFAULT 'KRW' CHECK (feeCurrency IN ('KRW', 'USD', 'EUR', 'JPY')),
                feePeriod TEXT NOT NULL DEFAULT 'month' CHECK (feePeriod IN ('once', 'month', 'year')),
                joinPolicy TEXT NOT NULL CHECK (joinPolicy IN ('open', 'approval', 'invite')),
                inviteCode TEXT CHECK (inviteCode IS NULL OR length(inviteCode) = 6),
                memberCap INTEGER CHECK (memberCap IS NULL OR memberCap BETWEEN 1 AND 100000),
                -- The cap holds even if two staff accept the last free place at once.
                memberCount INTEGER NOT NULL DEFAULT 0 CHECK (memberCount >= 0 AND (memberCap IS NULL OR memberCount <= memberCap)),
                createdAt DATETIME NOT NULL,
                lastActivityAt DATETIME NOT NULL
            );

            CREATE TABLE crewMembers (
                crewID INTEGER NOT NULL REFERENCES crews(id) ON DELETE CASCADE,
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                role TEXT NOT NULL CHECK (role IN ('owner', 'staff', 'member', 'pending')),
                joinedAt DATETIME NOT NULL,
                PRIMARY KEY (crewID, userID)
            ) WITHOUT ROWID;
            CREATE INDEX crewMembers_user ON crewMembers(userID, crewID);
            -- Exactly one owner: a second is refused, and the owner can only leave by handing over.
            CREATE UNIQUE INDEX crewMembers_owner ON crewMembers(crewID) WHERE role = 'owner';

            CREATE TABLE crewLedger (
                id INTEGER PRIMARY KEY,
                crewID INTEGER NOT NULL REFERENCES crews(id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (kind IN ('dues', 'waiver', 'income', 'expense')),
                memberID INTEGER REFERENCES users(id) ON DELETE SET NULL,
                amount INTEGER NOT NULL CHECK (amount BETWEEN 0 AND 100000000000),
                occurredOn TEXT NOT NULL CHECK (occurredOn GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
                note TEXT NOT NULL DEFAULT '' CHECK (length(note) <= 200),
                provider TEXT NOT NULL DEFAULT 'manual',
                recordedBy INTEGER NOT NULL REFERENCES users(id),
                createdAt DATETIME NOT NULL,
                CHECK ((kind IN ('dues', 'waiver')) = (memberID IS NOT NULL))
            );
            CREATE INDEX crewLedger_crew ON crewLedger(crewID, occurredOn);

            CREATE TABLE crewComments (
                id INTEGER PRIMARY KEY,
                crewID INTEGER NOT NULL REFERENCES crews(id) ON DELETE CASCADE,
                authorID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                body TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
                bodyHTML TEXT NOT NULL,
                createdAt DATETIME NOT NULL
            );
            CREATE INDEX crewComments_crew ON crewComments(crewID, id);

            ALTER TABLE posts ADD COLUMN crewID INTEGER REFERENCES crews(id) ON DELETE CASCADE;
            CREATE INDEX posts_crew ON posts(crewID, id) WHERE crewID IS NOT NULL;

            CREATE VIRTUAL TABLE crewSearch USING fts5(name, description, content='crews', content_rowid='id', tokenize='trigram');
            CREATE TRIGGER crews_search_insert AFTER INSERT ON crews BEGIN
                INSERT INTO crewSearch(rowid, name, description) VALUES (new.id, new.name, new.description);
            END;
            CREATE TRIGGER crews_search_delete AFTER DELETE ON crews BEGIN
                INSERT INTO crewSearch(crewSearch, rowid, name, description) VALUES ('delete', old.id, old.name, old.description);
            END;
            CREATE TRIGGER crews_search_update AFTER UPDATE OF name, description ON crews BEGIN
                INSERT INTO crewSearch(crewSearch, rowid, name, description) VALUES ('delete', old.id, old.name, old.description);
                INSERT INTO crewSearch(rowid, name, description) VALUES (new.id, new.name, new.description);
            END;

            -- Notifications learn crew events; SQLite cannot alter a CHECK, so the table is rebuilt.
            CREATE TABLE notificationsNew (
                id INTEGER PRIMARY KEY,
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (kind IN ('follow', 'comment', 'reply', 'mention', 'crewRequest', 'crewAccepted', 'crewRejected')),
                actorID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                postID INTEGER REFERENCES posts(id) ON DELETE CASCADE,
                commentID INTEGER REFERENCES comments(id) ON DELETE CASCADE,
                crewID INTEGER REFERENCES crews(id) ON DELETE CASCADE,
                createdAt DATETIME NOT NULL,
                readAt DATETIME
            );
            INSERT INTO notificationsNew (id, userID, kind, actorID, postID, commentID, createdAt, readAt)
                SELECT id, userID, kind, actorID, postID, commentID, createdAt, readAt FROM notifications;
            DROP TABLE notifications;
            ALTER TABLE notificationsNew RENAME TO notifications;
            CREATE INDEX notifications_user ON notifications(userID, id);
            """)
    }

    private static func createMeetups(_ db: Database) throws {
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

    private static func createModeration(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE posts ADD COLUMN hiddenAt DATETIME;
            ALTER TABLE posts ADD COLUMN commentsLocked BOOLEAN NOT NULL DEFAULT 0;
            ALTER TABLE comments ADD COLUMN hiddenAt DATETIME;
            ALTER TABLE crews ADD COLUMN hiddenAt DATETIME;
            ALTER TABLE meetups ADD COLUMN hiddenAt DATETIME;
            ALTER TABLE users ADD COLUMN suspendedUntil DATETIME;
            ALTER TABLE users ADD COLUMN silencedUntil DATETIME;
            ALTER TABLE users ADD COLUMN sanctionReason TEXT NOT NULL DEFAULT '';

            CREATE TABLE reports (
                id INTEGER PRIMARY KEY,
                reporterID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                targetType TEXT NOT NULL CHECK (targetType IN ('post', 'comment', 'crew', 'meetup', 'user')),
                targetID INTEGER NOT NULL,
                reason TEXT NOT NULL CHECK (reason IN ('spam', 'harassment', 'inappropriate', 'offTopic', 'other')),
                note TEXT NOT NULL DEFAULT '' CHECK (length(note) <= 500),
                createdAt DATETIME NOT NULL,
                resolvedAt DATETIME,
                resolution TEXT
            );
            -- One open report per reporter per target.
            CREATE UNIQUE INDEX reports_open ON reports(reporterID, targetType, targetID) WHERE resolvedAt IS NULL;
            CREATE INDEX reports_target ON reports(targetType, targetID);

            CREATE TABLE moderationLog (
                id INTEGER PRIMARY KEY,
                moderatorID INTEGER REFERENCES users(id) ON DELETE SET NULL,
                action TEXT NOT NULL,
                targetType TEXT NOT NULL,
                targetID INTEGER NOT NULL,
                targetLabel TEXT NOT NULL DEFAULT '',
                reason TEXT NOT NULL DEFAULT '',
                createdAt DATETIME NOT NULL
            );

            CREATE TABLE warnings (
                id INTEGER PRIMARY KEY,
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                moderatorID INTEGER REFERENCES users(id) ON DELETE SET NULL,
                reason TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
                createdAt DATETIME NOT NULL,
                readAt DATETIME
            );

            CREATE TABLE blocks (
                blockerID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                blockedID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                createdAt DATETIME NOT NULL,
                PRIMARY KEY (blockerID, blockedID),
                CHECK (blockerID != blockedID)
            ) WITHOUT ROWID;
            CREATE INDEX blocks_blocked ON blocks(blockedID, blockerID);
            """)
    }

    private static func createRecordsAndRetros(_ db: Database) throws {
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

    /// Tracks stored before points were checked could hold NaN, infinity or elevations like
    /// 1e39, which made every view of the record trap. Rewrite each through `Track`, which
    /// drops what is not believable; a track left with under two points is removed.
    private static func repairTracks(_ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT id, track FROM records WHERE track IS NOT NULL")
        for row in rows {
            let id: Int64 = row["id"]
            let stored: Data = row["track"] ?? Data()
            let track = Track(encoded: stored)
            let repaired = track.points.count >= 2 ? track.encoded : nil
            guard repaired != stored else { continue }
            try db.execute(sql: "UPDATE records SET track = ? WHERE id = ?", arguments: [repaired, id])
        }
    }

    /// Each member's home feed as rows of its own, kept by triggers: a post is added to the
    /// timelines of its author, the author's followers and (a crew post) the crew's members;
    /// following someone or joining a crew adds their posts; unfollowing or leaving removes
    /// those no other reason keeps. Reading a feed is then one index range, whatever the
    /// number of followees (measured in the README). The read checks each row's reason again,
    /// so a row a trigger missed can never show a post to someone it was not meant for.
    /// Elapsed seconds at each kilometre of a run read from a GPX file with times, as
    /// "301,598,…" (stored tracks keep no times, so splits are worked out at upload).
    /// Mail: the outbox the sender delivers from, single-use tokens (only their hashes) for
    /// password resets and address checks, and each member's mail settings (a row per member,
    /// made by a trigger). A notice cursor remembers the last notification considered for
    /// immediate mail; it starts at the newest, so that old news is never mailed.
    private static func addMail(_ db: Database) throws {
        let now = "(strftime('%Y-%m-%d %H:%M:%f', 'now'))"
        try db.execute(sql: """
            CREATE TABLE mailSettings (
                userID INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                verifiedEmail TEXT COLLATE NOCASE,
                digest TEXT NOT NULL DEFAULT 'weekly' CHECK (digest IN ('off', 'daily', 'weekly')),
                meetupNotices INTEGER NOT NULL DEFAULT 1 CHECK (meetupNotices IN (0, 1)),
                unsubscribeToken TEXT NOT NULL UNIQUE DEFAULT (lower(hex(randomblob(24)))),
                lastDigestAt DATETIME NOT NULL DEFAULT \(now)
            );
            INSERT INTO mailSettings (userID) SELECT id FROM users;
            CREATE TRIGGER users_mailSettings AFTER INSERT ON users BEGIN
                INSERT INTO mailSettings (userID) VALUES (NEW.id);
            END;
            CREATE TABLE emailTokens (
                tokenHash BLOB PRIMARY KEY CHECK (length(tokenHash) = 32),
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                purpose TEXT NOT NULL CHECK (purpose IN ('reset', 'verify')),
                email TEXT NOT NULL COLLATE NOCASE,
                createdAt DATETIME NOT NULL,
                expiresAt DATETIME NOT NULL,
                usedAt DATETIME
            ) WITHOUT ROWID;
            CREATE INDEX emailTokens_user ON emailTokens(userID, purpose, createdAt);
            CREATE TABLE outbox (
                id INTEGER PRIMARY KEY,
                userID INTEGER REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (kind IN ('reset', 'verify', 'emailChanged', 'digest', 'notice')),
                sender TEXT NOT NULL,
                recipient TEXT NOT NULL,
                message BLOB NOT NULL,
                createdAt DATETIME NOT NULL,
                expiresAt DATETIME NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
                nextAttemptAt DATETIME NOT NULL,
                claimedUntil DATETIME,
                claimedBy INTEGER,
                lastError TEXT NOT NULL DEFAULT '',
                status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
                finishedAt DATETIME
            );
            CREATE INDEX outbox_due ON outbox(status, nextAttemptAt);
            CREATE TABLE mailCursors (
                name TEXT PRIMARY KEY,
                position INTEGER NOT NULL
            ) WITHOUT ROWID;
            INSERT INTO mailCursors VALUES ('notices', (SELECT ifnull(max(id), 0) FROM notifications));
            """)
    }

    private static func addSplits(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE records ADD COLUMN splits TEXT CHECK (length(splits) <= 8000)")
    }

    /// Groups inside one meetup, each with its own capacity (kept by its own CHECK) and waitlist.
    private static func addPaceGroups(_ db: Database) throws {
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

    /// A code the host shows at the start; five wrong codes lock a person's check-in.
    private static func addCheckIn(_ db: Database) throws {
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

    /// A retrospective belongs to a crew or (one per meetup) to a meetup; the table is rebuilt
    /// to let `crewID` be empty.
    private static func addMeetupRetros(_ db: Database) throws {
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

    /// A third signup mode: a draw at the deadline, committed to by the SHA-256 of a secret
    /// seed shown from the start and revealed at the draw. SQLite cannot change a CHECK, so
    /// the table is rebuilt (GRDB checks foreign keys after the migration).
    private static func addLottery(_ db: Database) throws {
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

    /// When the host moves a meetup far or elsewhere, people going must confirm by `confirmBy`.
    private static func addReconfirmation(_ db: Database) throws {
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

    private static func createTimelines(_ db: Database) throws {
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
