extension AppDatabase {
    /// Reports, moderation actions and their log, blocks.
    public var moderation: ModerationStore { ModerationStore(database: self) }
}

/// The reads and writes of one area, `AppDatabase.moderation`: its methods are in this folder's
/// files, each an `extension ModerationStore`.
public struct ModerationStore: Sendable {
    let database: AppDatabase
}
