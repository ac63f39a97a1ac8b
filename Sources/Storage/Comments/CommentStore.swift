extension AppDatabase {
    /// Comments under posts.
    public var comments: CommentStore { CommentStore(database: self) }
}

/// The reads and writes of one area, `AppDatabase.comments`: its methods are in this folder's
/// files, each an `extension CommentStore`.
public struct CommentStore: Sendable {
    let database: AppDatabase
}
