/// Crew life:
/// - a host calls a meetup off with a reason: it stays, marked cancelled, and those going or
///   waiting are told (a notification kind of its own).
enum CrewLifeSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        ALTER TABLE meetups ADD COLUMN cancelledAt \(t.date);
        ALTER TABLE meetups ADD COLUMN cancelReason \(t.text) NOT NULL DEFAULT '';

        \(NotificationsSchema.rebuild(t, from: .meetups, to: .meetups, kinds: notificationKinds, laterIndexes: [UnreadIndexesSchema.notifications],
                                     referencedBy: [("pushQueue", "notificationID", "CASCADE")]))
        """
    }

    /// A meetup called off tells those going or waiting (`detail`: the host's reason).
    static let notificationKinds = TalkSchema.notificationKinds + ["meetupCancelled"]
}
