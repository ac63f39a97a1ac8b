/// Crew life:
/// - a host calls a meetup off with a reason: it stays, marked cancelled, and those going or
///   waiting are told (a notification kind of its own);
/// - those going are reminded the day before and an hour before (when each reminder went, on
///   the meetup, so that it goes once), by push and mail as each chooses;
/// - a meetup is of a sport, with that sport's own details (a basketball game's level and
///   format, a hike's ascent and difficulty, a ride's speed group); pace and style stay
///   running's. Meetups so far were runs.
enum CrewLifeSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        ALTER TABLE meetups ADD COLUMN cancelledAt \(t.date);
        ALTER TABLE meetups ADD COLUMN cancelReason \(t.text) NOT NULL DEFAULT '';
        ALTER TABLE meetups ADD COLUMN dayReminderAt \(t.date);
        ALTER TABLE meetups ADD COLUMN hourReminderAt \(t.date);
        CREATE INDEX meetups_reminders ON meetups(startsAt) WHERE hourReminderAt IS NULL;

        ALTER TABLE meetups ADD COLUMN sport \(t.text) NOT NULL DEFAULT 'running'
            CHECK (sport IN ('running', 'trail', 'cycling', 'basketball', 'hiking', 'other'));
        ALTER TABLE meetups ADD COLUMN level \(t.text) CHECK (level IN ('beginner', 'intermediate', 'advanced'));
        ALTER TABLE meetups ADD COLUMN gameFormat \(t.text) CHECK (gameFormat IN ('threeOnThree', 'fiveOnFive', 'practice'));
        ALTER TABLE meetups ADD COLUMN ascentMeters \(t.integer) CHECK (ascentMeters BETWEEN 0 AND 9000);
        ALTER TABLE meetups ADD COLUMN difficulty \(t.text) CHECK (difficulty IN ('easy', 'moderate', 'hard'));
        ALTER TABLE meetups ADD COLUMN speedGroup \(t.text) CHECK (speedGroup IN ('casual', 'steady', 'fast', 'race'));
        CREATE INDEX meetups_sport ON meetups(sport, startsAt);

        ALTER TABLE mailSettings ADD COLUMN meetupReminders \(t.boolean) NOT NULL DEFAULT \(t.true);
        -- Reminders are pushed to whoever chose kinds before they existed, unless they chose none.
        UPDATE pushPreferences SET kinds = kinds || ',reminders' WHERE kinds != '';

        \(NotificationsSchema.rebuild(t, from: .meetups, to: .meetups, kinds: notificationKinds, laterIndexes: [UnreadIndexesSchema.notifications],
                                     referencedBy: [("pushQueue", "notificationID", "CASCADE")]))
        """
    }

    /// A meetup called off tells those going or waiting (`detail`: the host's reason); one
    /// coming up reminds those going, a day and an hour before.
    static let notificationKinds = TalkSchema.notificationKinds + ["meetupCancelled", "meetupTomorrow", "meetupSoon"]
}
