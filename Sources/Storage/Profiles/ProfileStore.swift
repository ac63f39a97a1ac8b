extension AppDatabase {
    /// Profiles: follows, profile fields, verified workplaces.
    public var profiles: ProfileStore { ProfileStore(database: self) }
}

/// The reads and writes of one area, `AppDatabase.profiles`: its methods are in this folder's
/// files, each an `extension ProfileStore`.
public struct ProfileStore: Sendable {
    let database: AppDatabase
}
