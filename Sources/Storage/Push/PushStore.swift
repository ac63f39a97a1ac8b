extension AppDatabase {
    /// Push subscriptions and the push queue.
    public var push: PushStore { PushStore(database: self) }
}

/// Push subscriptions and the push queue. Handed out by `AppDatabase.push`; its reads and writes are in this folder's files.
public struct PushStore: Sendable {
    let database: AppDatabase
}
