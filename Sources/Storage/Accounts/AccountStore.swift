extension AppDatabase {
    /// Members' accounts: sign-up, sign-in providers, email tokens.
    public var accounts: AccountStore { AccountStore(database: self) }
}

/// Members' accounts: sign-up, sign-in providers, email tokens. Handed out by `AppDatabase.accounts`; its reads and writes are in this folder's files.
public struct AccountStore: Sendable {
    let database: AppDatabase
}
