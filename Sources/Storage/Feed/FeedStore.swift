extension AppDatabase {
    /// Feeds, search and notifications.
    public var feed: FeedStore { FeedStore(database: self) }
}

/// Feeds, search and notifications. Handed out by `AppDatabase.feed`; its reads and writes are in this folder's files.
public struct FeedStore: Sendable {
    let database: AppDatabase
}
