extension AppDatabase {
    /// Talk: rooms, conversations, messages, read positions.
    public var talk: TalkStore { TalkStore(database: self) }
}

/// The reads and writes of one area, `AppDatabase.talk`: its methods are in this folder's
/// files, each an `extension TalkStore`.
public struct TalkStore: Sendable {
    let database: AppDatabase
}
