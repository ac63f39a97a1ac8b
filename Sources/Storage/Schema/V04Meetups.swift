/// Meetups with their applications, talk and bookmarks, members' calendar feeds, and
/// notifications of meetup events.
enum MeetupsSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        \(create(t, lottery: false))
        \(indexes.joined(separator: "\n"))

        CREATE TABLE meetupApplications (
            id \(t.id),
            meetupID \(t.integer) NOT NULL REFERENCES meetups(id) ON DELETE CASCADE,
            userID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            status \(t.text) NOT NULL CHECK (status IN ('accepted', 'pending', 'waitlisted', 'rejected', 'cancelled')),
            -- The waitlist is served in this order.
            queuedAt \(t.date) NOT NULL,
            attended \(t.boolean),
            UNIQUE (meetupID, userID)
        );
        CREATE INDEX meetupApplications_user ON meetupApplications(userID, status);

        CREATE TABLE meetupTalk (
            id \(t.id),
            meetupID \(t.integer) NOT NULL REFERENCES meetups(id) ON DELETE CASCADE,
            authorID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            body \(t.text) NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
            bodyHTML \(t.text) NOT NULL,
            createdAt \(t.date) NOT NULL
        );
        CREATE INDEX meetupTalk_meetup ON meetupTalk(meetupID, id);

        CREATE TABLE meetupBookmarks (
            id \(t.id),
            userID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            meetupID \(t.integer) NOT NULL REFERENCES meetups(id) ON DELETE CASCADE,
            createdAt \(t.date) NOT NULL,
            UNIQUE (userID, meetupID)
        );

        -- A private token naming a member's calendar feed of the meetups they go to.
        ALTER TABLE users ADD COLUMN calendarToken \(t.text);
        CREATE UNIQUE INDEX users_calendarToken ON users(calendarToken) WHERE calendarToken IS NOT NULL;

        \(NotificationsSchema.rebuild(t, from: .crews, to: .meetups, kinds: notificationKinds))
        """
    }

    /// The notifications of crews', and of meetups.
    static let notificationKinds = CrewsSchema.kinds + ["meetupApplied", "meetupAccepted", "meetupRejected", "meetupPromoted", "meetupChanged"]

    /// The meetups table as this migration made it, or (`lottery`) as V11 made it again: with
    /// the draw's columns and a third signup mode.
    static func create(_ t: SchemaDialect, lottery: Bool) -> String {
        let modes = lottery ? "'firstCome', 'approval', 'lottery'" : "'firstCome', 'approval'"
        let draw = !lottery ? "" : """

                hiddenAt \(t.date),
                -- The draw's secret seed (shown once drawn), its SHA-256 (shown from the start).
                lotterySeed \(t.text) CHECK (lotterySeed IS NULL OR length(lotterySeed) BETWEEN 16 AND 100),
                lotteryCommitment \(t.text) CHECK (lotteryCommitment IS NULL OR length(lotteryCommitment) = 64),
                drawnAt \(t.date),
                -- The entrants' usernames in drawn order, comma-separated.
                lotteryResult \(t.text),
            """
        return """
            CREATE TABLE meetups (
                id \(t.id),
                hostID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                crewID \(t.integer) REFERENCES crews(id) ON DELETE CASCADE,
                crewOnly \(t.boolean) NOT NULL DEFAULT \(t.false) CHECK (\(t.not("crewOnly")) OR crewID IS NOT NULL),
                title \(t.text) NOT NULL CHECK (length(title) BETWEEN 1 AND 60),
                description \(t.text) NOT NULL DEFAULT '' CHECK (length(description) <= 5000),
                descriptionHTML \(t.text) NOT NULL DEFAULT '',
                startsAt \(t.date) NOT NULL,
                durationMinutes \(t.integer) NOT NULL CHECK (durationMinutes BETWEEN 10 AND 1440),
                placeName \(t.text) NOT NULL CHECK (length(placeName) BETWEEN 1 AND 100),
                address \(t.text) NOT NULL DEFAULT '' CHECK (length(address) <= 200),
                latitude \(t.real) CHECK (latitude IS NULL OR latitude BETWEEN -90 AND 90),
                longitude \(t.real) CHECK (longitude IS NULL OR longitude BETWEEN -180 AND 180),
                placeNote \(t.text) NOT NULL DEFAULT '' CHECK (length(placeNote) <= 200),
                region \(t.text) CHECK (length(region) <= 30),
                timeSlot \(t.text) NOT NULL CHECK (timeSlot IN ('beforeWork', 'afterWork', 'weekend')),
                distanceKm \(t.real) CHECK (distanceKm IS NULL OR distanceKm BETWEEN 0.1 AND 300),
                pace \(t.text) NOT NULL CHECK (pace IN ('beginner', 'average', 'fast', 'elite')),
                style \(t.text) NOT NULL CHECK (style IN ('walk', 'jog', 'run', 'interval')),
                capacity \(t.integer) NOT NULL CHECK (capacity BETWEEN 1 AND 1000),
                signupMode \(t.text) NOT NULL CHECK (signupMode IN (\(modes))),
                deadline \(t.date) NOT NULL,
                afterParty \(t.boolean) NOT NULL DEFAULT \(t.false),
                genderRule \(t.text) NOT NULL DEFAULT 'any' CHECK (genderRule IN ('any', 'female', 'male')),
                minAge \(t.integer) CHECK (minAge IS NULL OR minAge BETWEEN 10 AND 100),
                maxAge \(t.integer) CHECK (maxAge IS NULL OR maxAge BETWEEN 10 AND 100),
                jobs \(t.text) NOT NULL DEFAULT '',
                -- Nobody is accepted past capacity, whatever the race.
                acceptedCount \(t.integer) NOT NULL DEFAULT 0 CHECK (acceptedCount BETWEEN 0 AND capacity),
                closedAt \(t.date),
                sequence \(t.integer) NOT NULL DEFAULT 0,
                createdAt \(t.date) NOT NULL,
                updatedAt \(t.date) NOT NULL,\(draw)
                CHECK (minAge IS NULL OR maxAge IS NULL OR minAge <= maxAge)\(lottery
                    ? ",\n    CHECK (signupMode != 'lottery' OR (lotterySeed IS NOT NULL AND lotteryCommitment IS NOT NULL))" : "")
            );
            """
    }

    static let indexes = [
        "CREATE INDEX meetups_start ON meetups(startsAt, id);",
        "CREATE INDEX meetups_crew ON meetups(crewID, startsAt) WHERE crewID IS NOT NULL;",
    ]
}
