/// Talk: rooms (a crew's own, its topic rooms, a meetup's talk, direct conversations and small
/// groups), who is in each with how far they have read, and the messages; and a crew's
/// notices, with who has read them (a notification of their own kind, as is a crew's new
/// meetup; a member silences both per crew). A room's message can be reported.
///
/// - A crew's room and topic rooms are open to its members: triggers on `crewMembers` keep
///   their `roomMembers` rows (a newcomer has read what was written before they came) (each engine's own, as the timelines' are), so that every way a
///   member joins or leaves (joining, being accepted, paying, leaving, being removed) does.
/// - A meetup's talk is a room of its own for its host and those accepted, kept the same way
///   by triggers on `meetups` and `meetupApplications`; `meetupTalk`'s messages move into it
///   with their ids (a push of one still waiting is dropped), and the table goes.
/// - A direct conversation is one per pair of members (`directKey`, the two ids in order).
/// - Each member's row keeps the room's last message time, so the inbox is one index range
///   newest first, and their unread count, kept by the write that sends a message.
/// - A message is deleted as a tombstone (`deletedAt`, its text emptied): the thread keeps
///   its place.
enum TalkSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        CREATE TABLE rooms (
            id \(t.id),
            kind \(t.text) NOT NULL CHECK (kind IN ('crew', 'topic', 'meetup', 'direct', 'group')),
            crewID \(t.integer) REFERENCES crews(id) ON DELETE CASCADE,
            meetupID \(t.integer) UNIQUE REFERENCES meetups(id) ON DELETE CASCADE,
            name \(t.text) CHECK (name IS NULL OR length(name) BETWEEN 1 AND 40),
            directKey \(t.text) UNIQUE CHECK (directKey IS NULL OR length(directKey) <= 41),
            createdBy \(t.integer) REFERENCES users(id) ON DELETE SET NULL,
            createdAt \(t.date) NOT NULL,
            archivedAt \(t.date),
            lastMessageID \(t.integer) NOT NULL DEFAULT 0,
            lastMessageAt \(t.date) NOT NULL,
            CHECK ((kind IN ('crew', 'topic')) = (crewID IS NOT NULL)),
            CHECK ((kind = 'meetup') = (meetupID IS NOT NULL)),
            CHECK ((kind = 'direct') = (directKey IS NOT NULL)),
            CHECK (kind != 'topic' OR name IS NOT NULL),
            CHECK (kind NOT IN ('crew', 'meetup', 'direct') OR name IS NULL)
        );
        -- One room of its own per crew; its topic rooms beside it.
        CREATE UNIQUE INDEX rooms_crew ON rooms(crewID) WHERE kind = 'crew';
        CREATE INDEX rooms_crew_topics ON rooms(crewID, id);

        CREATE TABLE roomMembers (
            roomID \(t.integer) NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
            userID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            -- A request: a first message from someone the member does not know, not yet accepted.
            state \(t.text) NOT NULL DEFAULT 'joined' CHECK (state IN ('joined', 'request')),
            lastReadID \(t.integer) NOT NULL DEFAULT 0,
            unread \(t.integer) NOT NULL DEFAULT 0 CHECK (unread >= 0),
            lastMessageAt \(t.date) NOT NULL,
            mutedUntil \(t.date),
            joinedAt \(t.date) NOT NULL,
            PRIMARY KEY (roomID, userID)
        )\(t.withoutRowID);
        CREATE INDEX roomMembers_inbox ON roomMembers(userID, lastMessageAt);
        -- The header's count reads only the rooms with something unread.
        CREATE INDEX roomMembers_unread ON roomMembers(userID) WHERE unread > 0;
        -- The inbox's count of requests reads only the conversations waiting to be accepted.
        CREATE INDEX roomMembers_requests ON roomMembers(userID) WHERE state = 'request';

        CREATE TABLE messages (
            id \(t.id),
            roomID \(t.integer) NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
            authorID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            body \(t.text) NOT NULL CHECK (length(body) <= 4000),
            bodyHTML \(t.text) NOT NULL,
            replyToID \(t.integer) REFERENCES messages(id) ON DELETE SET NULL,
            placeName \(t.text) CHECK (placeName IS NULL OR length(placeName) BETWEEN 1 AND 100),
            latitude \(t.real) CHECK (latitude IS NULL OR latitude BETWEEN -90 AND 90),
            longitude \(t.real) CHECK (longitude IS NULL OR longitude BETWEEN -180 AND 180),
            createdAt \(t.date) NOT NULL,
            editedAt \(t.date),
            deletedAt \(t.date),
            CHECK ((latitude IS NULL) = (longitude IS NULL)),
            CHECK (deletedAt IS NULL OR body = '')
        );
        CREATE INDEX messages_room ON messages(roomID, id);
        CREATE INDEX messages_author ON messages(authorID, id);

        CREATE TABLE messagePhotos (
            id \(t.id),
            messageID \(t.integer) NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
            position \(t.shortInteger) NOT NULL CHECK (position BETWEEN 0 AND 9),
            fileName \(t.text) NOT NULL,
            mediaType \(t.text) NOT NULL,
            width \(t.integer) NOT NULL,
            height \(t.integer) NOT NULL,
            byteCount \(t.integer) NOT NULL,
            tone \(t.integer),
            jpegWidths \(t.text) NOT NULL DEFAULT '',
            UNIQUE (messageID, position)
        );

        -- Who may start a conversation with a member; no row is 'anyone'.
        CREATE TABLE talkSettings (
            userID \(t.integer) PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            whoMayStart \(t.text) NOT NULL CHECK (whoMayStart IN ('anyone', 'following', 'crewmates', 'nobody'))
        );

        -- A crew's notices (공지): the newest not unpinned is shown at the top of the crew's page
        -- and room; who has read it is kept, for staff to see who has not.
        CREATE TABLE crewNotices (
            id \(t.id),
            crewID \(t.integer) NOT NULL REFERENCES crews(id) ON DELETE CASCADE,
            authorID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            body \(t.text) NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
            bodyHTML \(t.text) NOT NULL,
            createdAt \(t.date) NOT NULL,
            unpinnedAt \(t.date)
        );
        CREATE INDEX crewNotices_crew ON crewNotices(crewID, id);
        CREATE TABLE noticeReads (
            noticeID \(t.integer) NOT NULL REFERENCES crewNotices(id) ON DELETE CASCADE,
            userID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            readAt \(t.date) NOT NULL,
            PRIMARY KEY (noticeID, userID)
        )\(t.withoutRowID);

        \(NotificationsSchema.rebuild(t, from: .meetups, to: .meetups, kinds: notificationKinds, laterIndexes: [UnreadIndexesSchema.notifications],
                                     referencedBy: [("pushQueue", "notificationID", "CASCADE")]))

        -- Whether a crew's notices and new meetups notify the member (silenced per crew).
        ALTER TABLE crewMembers ADD COLUMN notifies \(t.boolean) NOT NULL DEFAULT \(t.true);

        -- A room's message can be reported.
        \(t.rebuild("reports", create: reports(t),
                    copied: ["id", "reporterID", "targetType", "targetID", "reason", "note", "createdAt", "resolvedAt", "resolution"],
                    indexes: ["CREATE UNIQUE INDEX reports_open ON reports(reporterID, targetType, targetID) WHERE resolvedAt IS NULL;",
                              "CREATE INDEX reports_target ON reports(targetType, targetID);"]))

        -- A push is of a notification or of a room's message.
        DELETE FROM pushQueue WHERE talkID IS NOT NULL;
        \(t.rebuild("pushQueue", create: pushQueue(t), copied: ["id", "subscriptionID", "notificationID", "attempts", "nextAttemptAt", "createdAt"],
                    indexes: ["CREATE INDEX pushQueue_due ON pushQueue(nextAttemptAt);", "CREATE INDEX pushQueue_subscription ON pushQueue(subscriptionID);"]))

        \(t.isPostgres ? postgresTriggers : sqliteTriggers)

        -- Every crew's own room, with its members, as if each had always had one.
        INSERT INTO rooms (kind, crewID, createdAt, lastMessageAt) SELECT 'crew', id, createdAt, createdAt FROM crews;
        INSERT INTO roomMembers (roomID, userID, lastMessageAt, joinedAt)
            SELECT rooms.id, crewMembers.userID, rooms.lastMessageAt, crewMembers.joinedAt
            FROM rooms JOIN crewMembers ON crewMembers.crewID = rooms.crewID WHERE crewMembers.role != 'pending';

        -- Every meetup's talk as a room: its host and those accepted, its messages with their ids,
        -- read by all (nothing counts as unread from before rooms).
        INSERT INTO rooms (kind, meetupID, createdAt, lastMessageAt) SELECT 'meetup', id, createdAt, createdAt FROM meetups;
        INSERT INTO messages (id, roomID, authorID, body, bodyHTML, createdAt)
            SELECT meetupTalk.id, rooms.id, meetupTalk.authorID, meetupTalk.body, meetupTalk.bodyHTML, meetupTalk.createdAt
            FROM meetupTalk JOIN rooms ON rooms.meetupID = meetupTalk.meetupID ORDER BY meetupTalk.id;
        \(t.isPostgres ? "SELECT setval(pg_get_serial_sequence('messages', 'id'), (SELECT coalesce(max(id), 0) + 1 FROM messages), false);" : "")
        UPDATE rooms SET lastMessageID = coalesce((SELECT max(id) FROM messages WHERE messages.roomID = rooms.id), 0) WHERE kind = 'meetup';
        UPDATE rooms SET lastMessageAt = (SELECT createdAt FROM messages WHERE messages.id = rooms.lastMessageID) WHERE kind = 'meetup' AND lastMessageID > 0;
        INSERT INTO roomMembers (roomID, userID, lastReadID, lastMessageAt, joinedAt)
            SELECT rooms.id, meetups.hostID, rooms.lastMessageID, rooms.lastMessageAt, meetups.createdAt
            FROM rooms JOIN meetups ON meetups.id = rooms.meetupID;
        INSERT INTO roomMembers (roomID, userID, lastReadID, lastMessageAt, joinedAt)
            SELECT rooms.id, meetupApplications.userID, rooms.lastMessageID, rooms.lastMessageAt, meetupApplications.queuedAt
            FROM rooms JOIN meetupApplications ON meetupApplications.meetupID = rooms.meetupID WHERE meetupApplications.status = 'accepted'
            ON CONFLICT DO NOTHING;
        DROP TABLE meetupTalk;
        """
    }

    private static func reports(_ t: SchemaDialect) -> String {
        """
        CREATE TABLE reports (
            id \(t.id),
            reporterID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            targetType \(t.text) NOT NULL CHECK (targetType IN ('post', 'comment', 'crew', 'meetup', 'user', 'message')),
            targetID \(t.integer) NOT NULL,
            reason \(t.text) NOT NULL CHECK (reason IN ('spam', 'harassment', 'inappropriate', 'offTopic', 'other')),
            note \(t.text) NOT NULL DEFAULT '' CHECK (length(note) <= 500),
            createdAt \(t.date) NOT NULL,
            resolvedAt \(t.date),
            resolution \(t.text)
        );
        """
    }

    private static func pushQueue(_ t: SchemaDialect) -> String {
        """
        CREATE TABLE pushQueue (
            id \(t.id),
            subscriptionID \(t.integer) NOT NULL REFERENCES pushSubscriptions(id) ON DELETE CASCADE,
            notificationID \(t.integer) REFERENCES notifications(id) ON DELETE CASCADE,
            messageID \(t.integer) REFERENCES messages(id) ON DELETE CASCADE,
            attempts \(t.shortInteger) NOT NULL DEFAULT 0,
            nextAttemptAt \(t.date) NOT NULL,
            createdAt \(t.date) NOT NULL,
            CHECK ((notificationID IS NULL) != (messageID IS NULL))
        );
        """
    }

    /// A crew's notice tells its members (`detail`: the start of its text), and so does a
    /// meetup its staff schedule for it (`meetupID`).
    static let notificationKinds = ReconfirmationSchema.notificationKinds + ["crewNotice", "crewMeetup"]

    private static let sqliteTriggers = """
        CREATE TRIGGER talk_crew_room AFTER INSERT ON crews BEGIN
            INSERT INTO rooms (kind, crewID, createdAt, lastMessageAt) VALUES ('crew', new.id, new.createdAt, new.createdAt);
        END;
        CREATE TRIGGER talk_crew_join AFTER INSERT ON crewMembers WHEN new.role != 'pending' BEGIN
            INSERT OR IGNORE INTO roomMembers (roomID, userID, lastReadID, lastMessageAt, joinedAt)
                SELECT id, new.userID, lastMessageID, lastMessageAt, new.joinedAt FROM rooms WHERE crewID = new.crewID;
        END;
        CREATE TRIGGER talk_crew_accept AFTER UPDATE OF role ON crewMembers
        WHEN old.role = 'pending' AND new.role != 'pending' BEGIN
            INSERT OR IGNORE INTO roomMembers (roomID, userID, lastReadID, lastMessageAt, joinedAt)
                SELECT id, new.userID, lastMessageID, lastMessageAt, new.joinedAt FROM rooms WHERE crewID = new.crewID;
        END;
        CREATE TRIGGER talk_crew_leave AFTER DELETE ON crewMembers BEGIN
            DELETE FROM roomMembers WHERE userID = old.userID AND roomID IN (SELECT id FROM rooms WHERE crewID = old.crewID);
        END;

        CREATE TRIGGER talk_meetup_room AFTER INSERT ON meetups BEGIN
            INSERT INTO rooms (kind, meetupID, createdAt, lastMessageAt) VALUES ('meetup', new.id, new.createdAt, new.createdAt);
            INSERT INTO roomMembers (roomID, userID, lastMessageAt, joinedAt) SELECT id, new.hostID, new.createdAt, new.createdAt FROM rooms WHERE meetupID = new.id;
        END;
        CREATE TRIGGER talk_meetup_accept AFTER INSERT ON meetupApplications WHEN new.status = 'accepted' BEGIN
            INSERT OR IGNORE INTO roomMembers (roomID, userID, lastReadID, lastMessageAt, joinedAt)
                SELECT id, new.userID, lastMessageID, lastMessageAt, new.queuedAt FROM rooms WHERE meetupID = new.meetupID;
        END;
        CREATE TRIGGER talk_meetup_promote AFTER UPDATE OF status ON meetupApplications
        WHEN new.status = 'accepted' AND old.status != 'accepted' BEGIN
            INSERT OR IGNORE INTO roomMembers (roomID, userID, lastReadID, lastMessageAt, joinedAt)
                SELECT id, new.userID, lastMessageID, lastMessageAt, new.queuedAt FROM rooms WHERE meetupID = new.meetupID;
        END;
        CREATE TRIGGER talk_meetup_demote AFTER UPDATE OF status ON meetupApplications
        WHEN old.status = 'accepted' AND new.status != 'accepted' BEGIN
            DELETE FROM roomMembers WHERE userID = old.userID AND roomID IN (
                SELECT id FROM rooms WHERE meetupID = old.meetupID) AND old.userID NOT IN (SELECT hostID FROM meetups WHERE id = old.meetupID);
        END;
        CREATE TRIGGER talk_meetup_withdraw AFTER DELETE ON meetupApplications WHEN old.status = 'accepted' BEGIN
            DELETE FROM roomMembers WHERE userID = old.userID AND roomID IN (
                SELECT id FROM rooms WHERE meetupID = old.meetupID) AND old.userID NOT IN (SELECT hostID FROM meetups WHERE id = old.meetupID);
        END;
        """

    private static let postgresTriggers = """
        CREATE FUNCTION talk_crew_room() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO rooms (kind, crewID, createdAt, lastMessageAt) VALUES ('crew', NEW.id, NEW.createdAt, NEW.createdAt);
            RETURN NULL;
        END $$;
        CREATE TRIGGER talk_crew_room AFTER INSERT ON crews FOR EACH ROW EXECUTE FUNCTION talk_crew_room();

        CREATE FUNCTION talk_crew_join() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO roomMembers (roomID, userID, lastReadID, lastMessageAt, joinedAt)
                SELECT id, NEW.userID, lastMessageID, lastMessageAt, NEW.joinedAt FROM rooms WHERE crewID = NEW.crewID
            ON CONFLICT DO NOTHING;
            RETURN NULL;
        END $$;
        CREATE TRIGGER talk_crew_join AFTER INSERT ON crewMembers
            FOR EACH ROW WHEN (NEW.role != 'pending') EXECUTE FUNCTION talk_crew_join();
        CREATE TRIGGER talk_crew_accept AFTER UPDATE OF role ON crewMembers
            FOR EACH ROW WHEN (OLD.role = 'pending' AND NEW.role != 'pending') EXECUTE FUNCTION talk_crew_join();

        CREATE FUNCTION talk_crew_leave() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM roomMembers WHERE userID = OLD.userID AND roomID IN (SELECT id FROM rooms WHERE crewID = OLD.crewID);
            RETURN NULL;
        END $$;
        CREATE TRIGGER talk_crew_leave AFTER DELETE ON crewMembers FOR EACH ROW EXECUTE FUNCTION talk_crew_leave();

        CREATE FUNCTION talk_meetup_room() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO rooms (kind, meetupID, createdAt, lastMessageAt) VALUES ('meetup', NEW.id, NEW.createdAt, NEW.createdAt);
            INSERT INTO roomMembers (roomID, userID, lastMessageAt, joinedAt) SELECT id, NEW.hostID, NEW.createdAt, NEW.createdAt FROM rooms WHERE meetupID = NEW.id;
            RETURN NULL;
        END $$;
        CREATE TRIGGER talk_meetup_room AFTER INSERT ON meetups FOR EACH ROW EXECUTE FUNCTION talk_meetup_room();

        CREATE FUNCTION talk_meetup_accept() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO roomMembers (roomID, userID, lastReadID, lastMessageAt, joinedAt)
                SELECT id, NEW.userID, lastMessageID, lastMessageAt, NEW.queuedAt FROM rooms WHERE meetupID = NEW.meetupID
            ON CONFLICT DO NOTHING;
            RETURN NULL;
        END $$;
        CREATE TRIGGER talk_meetup_accept AFTER INSERT ON meetupApplications
            FOR EACH ROW WHEN (NEW.status = 'accepted') EXECUTE FUNCTION talk_meetup_accept();
        CREATE TRIGGER talk_meetup_promote AFTER UPDATE OF status ON meetupApplications
            FOR EACH ROW WHEN (NEW.status = 'accepted' AND OLD.status != 'accepted') EXECUTE FUNCTION talk_meetup_accept();

        CREATE FUNCTION talk_meetup_withdraw() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM roomMembers WHERE userID = OLD.userID AND roomID IN (SELECT id FROM rooms WHERE meetupID = OLD.meetupID)
                AND OLD.userID NOT IN (SELECT hostID FROM meetups WHERE id = OLD.meetupID);
            RETURN NULL;
        END $$;
        CREATE TRIGGER talk_meetup_demote AFTER UPDATE OF status ON meetupApplications
            FOR EACH ROW WHEN (OLD.status = 'accepted' AND NEW.status != 'accepted') EXECUTE FUNCTION talk_meetup_withdraw();
        CREATE TRIGGER talk_meetup_withdraw AFTER DELETE ON meetupApplications
            FOR EACH ROW WHEN (OLD.status = 'accepted') EXECUTE FUNCTION talk_meetup_withdraw();
        """
}
