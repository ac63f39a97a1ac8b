extension AppDatabase {
    /// Run records.
    public var records: RecordStore { RecordStore(database: self) }
}

/// The reads and writes of one area, `AppDatabase.records`: its methods are in this folder's
/// files, each an `extension RecordStore`.
public struct RecordStore: Sendable {
    let database: AppDatabase
}
