extension AppDatabase {
    /// Sessions and the member each one is.
    public var sessions: SessionStore { SessionStore(database: self) }
}

/// Sessions and the member each one is. Handed out by `AppDatabase.sessions`; its reads and writes are in this folder's files.
public struct SessionStore: Sendable {
    let database: AppDatabase
}
