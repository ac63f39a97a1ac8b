/// When the host moves a meetup far or elsewhere, people going must confirm by `confirmBy`;
/// notifications learn to ask, and to tell of a lottery's draw.
enum ReconfirmationSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        ALTER TABLE meetupApplications ADD COLUMN confirmBy \(t.date);
        CREATE INDEX meetupApplications_confirmBy ON meetupApplications(confirmBy) WHERE confirmBy IS NOT NULL;

        \(NotificationsSchema.rebuild(t, from: .meetups, to: .meetups, kinds: notificationKinds))
        """
    }

    static let notificationKinds = MeetupsSchema.notificationKinds + ["meetupConfirm", "meetupUnconfirmed", "meetupLotteryWon", "meetupLotteryLost"]
}
