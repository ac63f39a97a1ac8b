extension AppDatabase {
    /// Meetups: signups, places, check-in, search.
    public var meetups: MeetupStore { MeetupStore(database: self) }
}

/// Meetups: signups, places, check-in, search. Handed out by `AppDatabase.meetups`; its reads and writes are in this folder's files.
public struct MeetupStore: Sendable {
    let database: AppDatabase
}
