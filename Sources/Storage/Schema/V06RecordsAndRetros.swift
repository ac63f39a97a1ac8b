/// Run records, members' units and leaderboard choice, and crews' retrospectives.
enum RecordsAndRetrosSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        CREATE TABLE records (
            id \(t.id),
            userID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            startedAt \(t.date) NOT NULL,
            distanceMeters \(t.integer) NOT NULL CHECK (distanceMeters BETWEEN 1 AND 1000000),
            durationSeconds \(t.integer) NOT NULL CHECK (durationSeconds BETWEEN 1 AND 360000),
            elevationGain \(t.integer) NOT NULL DEFAULT 0 CHECK (elevationGain BETWEEN 0 AND 20000),
            note \(t.text) NOT NULL DEFAULT '' CHECK (length(note) <= 2000),
            noteHTML \(t.text) NOT NULL DEFAULT '',
            visibility \(t.text) NOT NULL CHECK (visibility IN ('public', 'crew', 'private')),
            meetupID \(t.integer) REFERENCES meetups(id) ON DELETE SET NULL,
            -- GPX track: little-endian Float32 latitude, longitude, elevation per point.
            track \(t.blob),
            createdAt \(t.date) NOT NULL
        );
        CREATE INDEX records_user ON records(userID, startedAt);
        ALTER TABLE users ADD COLUMN units \(t.text) NOT NULL DEFAULT 'km' CHECK (units IN ('km', 'mi'));
        ALTER TABLE users ADD COLUMN onLeaderboard \(t.boolean) NOT NULL DEFAULT \(t.false);

        \(RetrosSchema.create(t, ofMeetups: false))
        CREATE INDEX retros_crew ON retros(crewID, startsAt);

        CREATE TABLE retroFeedback (
            id \(t.id),
            retroID \(t.integer) NOT NULL REFERENCES retros(id) ON DELETE CASCADE,
            authorID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            recipientID \(t.integer) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            kind \(t.text) NOT NULL CHECK (kind IN ('continue', 'stop')),
            keyword \(t.text) NOT NULL CHECK (length(keyword) BETWEEN 1 AND 10),
            description \(t.text) NOT NULL CHECK (length(description) BETWEEN 1 AND 400),
            toStart \(t.text) NOT NULL DEFAULT '' CHECK (length(toStart) <= 200),
            createdAt \(t.date) NOT NULL,
            updatedAt \(t.date) NOT NULL,
            CHECK (authorID != recipientID)
        );
        CREATE INDEX retroFeedback_recipient ON retroFeedback(recipientID, retroID);
        CREATE INDEX retroFeedback_author ON retroFeedback(retroID, authorID);
        """
    }
}
