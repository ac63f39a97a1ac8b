extension AppDatabase {
    /// What live pages stream: talk, guestbooks, bells.
    public var live: LiveStore { LiveStore(database: self) }
}

/// What live pages stream: talk, guestbooks, bells. Handed out by `AppDatabase.live`; its reads and writes are in this folder's files.
public struct LiveStore: Sendable {
    let database: AppDatabase
}
