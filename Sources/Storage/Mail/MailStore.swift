extension AppDatabase {
    /// The outbox, mail settings and digests.
    public var mail: MailStore { MailStore(database: self) }
}

/// The reads and writes of one area, `AppDatabase.mail`: its methods are in this folder's
/// files, each an `extension MailStore`.
public struct MailStore: Sendable {
    let database: AppDatabase
}
