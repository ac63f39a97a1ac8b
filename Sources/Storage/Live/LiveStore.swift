extension AppDatabase {
    /// What live pages stream: talk, guestbooks, bells.
    public var live: LiveStore { LiveStore(database: self) }
}

/// The reads and writes of one area, `AppDatabase.live`: its methods are in this folder's
/// files, each an `extension LiveStore`.
public struct LiveStore: Sendable {
    let database: AppDatabase
}
