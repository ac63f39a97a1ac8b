extension AppDatabase {
    /// Comments under posts.
    public var comments: CommentStore { CommentStore(database: self) }
}

/// Comments under posts. Handed out by `AppDatabase.comments`; its reads and writes are in this folder's files.
public struct CommentStore: Sendable {
    let database: AppDatabase
}
