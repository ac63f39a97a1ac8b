extension AppDatabase {
    /// Posts, their photos, likes and bookmarks.
    public var posts: PostStore { PostStore(database: self) }
}

/// The reads and writes of one area, `AppDatabase.posts`: its methods are in this folder's
/// files, each an `extension PostStore`.
public struct PostStore: Sendable {
    let database: AppDatabase
}
