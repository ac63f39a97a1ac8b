extension AppDatabase {
    /// Sessions and the member each one is.
    public var sessions: SessionStore { SessionStore(database: self) }
}

/// The reads and writes of one area, `AppDatabase.sessions`: its methods are in this folder's
/// files, each an `extension SessionStore`.
public struct SessionStore: Sendable {
    let database: AppDatabase
}
