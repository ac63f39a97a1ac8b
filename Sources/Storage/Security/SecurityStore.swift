extension AppDatabase {
    /// Rate limits shared by servers.
    public var security: SecurityStore { SecurityStore(database: self) }
}

/// Rate limits shared by servers. Handed out by `AppDatabase.security`; its reads and writes are in this folder's files.
public struct SecurityStore: Sendable {
    let database: AppDatabase
}
