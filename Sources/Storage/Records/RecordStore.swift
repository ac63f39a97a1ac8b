extension AppDatabase {
    /// Run records.
    public var records: RecordStore { RecordStore(database: self) }
}

/// Run records. Handed out by `AppDatabase.records`; its reads and writes are in this folder's files.
public struct RecordStore: Sendable {
    let database: AppDatabase
}
