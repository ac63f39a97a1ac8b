extension AppDatabase {
    /// Crews: members, the guestbook, the ledger, search.
    public var crews: CrewStore { CrewStore(database: self) }
}

/// Crews: members, the guestbook, the ledger, search. Handed out by `AppDatabase.crews`; its reads and writes are in this folder's files.
public struct CrewStore: Sendable {
    let database: AppDatabase
}
