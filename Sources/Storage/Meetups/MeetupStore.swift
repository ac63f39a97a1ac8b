extension AppDatabase {
    /// Meetups: signups, places, check-in, search.
    public var meetups: MeetupStore { MeetupStore(database: self) }
}

/// The reads and writes of one area, `AppDatabase.meetups`: its methods are in this folder's
/// files, each an `extension MeetupStore`.
public struct MeetupStore: Sendable {
    let database: AppDatabase
}
