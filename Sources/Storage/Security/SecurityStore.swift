extension AppDatabase {
    /// Rate limits shared by servers.
    public var security: SecurityStore { SecurityStore(database: self) }
}

/// The reads and writes of one area, `AppDatabase.security`: its methods are in this folder's
/// files, each an `extension SecurityStore`.
public struct SecurityStore: Sendable {
    let database: AppDatabase
}
