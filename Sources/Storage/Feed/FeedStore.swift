extension AppDatabase {
    /// Feeds, search and notifications.
    public var feed: FeedStore { FeedStore(database: self) }
}

/// The reads and writes of one area, `AppDatabase.feed`: its methods are in this folder's
/// files, each an `extension FeedStore`.
public struct FeedStore: Sendable {
    let database: AppDatabase
}
