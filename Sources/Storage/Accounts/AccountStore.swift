extension AppDatabase {
    /// Members' accounts: sign-up, sign-in providers, email tokens.
    public var accounts: AccountStore { AccountStore(database: self) }
}

/// The reads and writes of one area, `AppDatabase.accounts`: its methods are in this folder's
/// files, each an `extension AccountStore`.
public struct AccountStore: Sendable {
    let database: AppDatabase
}
