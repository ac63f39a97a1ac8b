extension AppDatabase {
    /// The outbox, mail settings and digests.
    public var mail: MailStore { MailStore(database: self) }
}

/// The outbox, mail settings and digests. Handed out by `AppDatabase.mail`; its reads and writes are in this folder's files.
public struct MailStore: Sendable {
    let database: AppDatabase
}
