extension AppDatabase {
    /// Crews: members, the guestbook, the ledger, search.
    public var crews: CrewStore { CrewStore(database: self) }
}

/// The reads and writes of one area, `AppDatabase.crews`: its methods are in this folder's
/// files, each an `extension CrewStore`.
public struct CrewStore: Sendable {
    let database: AppDatabase
}
