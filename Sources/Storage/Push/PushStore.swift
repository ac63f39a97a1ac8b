extension AppDatabase {
    /// Push subscriptions and the push queue.
    public var push: PushStore { PushStore(database: self) }
}

/// The reads and writes of one area, `AppDatabase.push`: its methods are in this folder's
/// files, each an `extension PushStore`.
public struct PushStore: Sendable {
    let database: AppDatabase
}
