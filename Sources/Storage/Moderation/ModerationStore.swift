extension AppDatabase {
    /// Reports, moderation actions and their log, blocks.
    public var moderation: ModerationStore { ModerationStore(database: self) }
}

/// Reports, moderation actions and their log, blocks. Handed out by `AppDatabase.moderation`; its reads and writes are in this folder's files.
public struct ModerationStore: Sendable {
    let database: AppDatabase
}
