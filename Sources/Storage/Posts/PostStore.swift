extension AppDatabase {
    /// Posts, their photos, likes and bookmarks.
    public var posts: PostStore { PostStore(database: self) }
}

/// Posts, their photos, likes and bookmarks. Handed out by `AppDatabase.posts`; its reads and writes are in this folder's files.
public struct PostStore: Sendable {
    let database: AppDatabase
}
