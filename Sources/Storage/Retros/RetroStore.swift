extension AppDatabase {
    /// Keyword retrospectives and their feedback.
    public var retros: RetroStore { RetroStore(database: self) }
}

/// The reads and writes of one area, `AppDatabase.retros`: its methods are in this folder's
/// files, each an `extension RetroStore`.
public struct RetroStore: Sendable {
    let database: AppDatabase
}
