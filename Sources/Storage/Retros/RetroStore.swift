extension AppDatabase {
    /// Keyword retrospectives and their feedback.
    public var retros: RetroStore { RetroStore(database: self) }
}

/// Keyword retrospectives and their feedback. Handed out by `AppDatabase.retros`; its reads and writes are in this folder's files.
public struct RetroStore: Sendable {
    let database: AppDatabase
}
