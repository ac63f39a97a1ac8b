extension AppDatabase {
    /// Profiles: follows, profile fields, verified workplaces.
    public var profiles: ProfileStore { ProfileStore(database: self) }
}

/// Profiles: follows, profile fields, verified workplaces. Handed out by `AppDatabase.profiles`; its reads and writes are in this folder's files.
public struct ProfileStore: Sendable {
    let database: AppDatabase
}
