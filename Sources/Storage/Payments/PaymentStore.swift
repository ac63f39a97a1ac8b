extension AppDatabase {
    /// Payments of fees and dues, and dues periods.
    public var payments: PaymentStore { PaymentStore(database: self) }
}

/// Payments of fees and dues, and dues periods. Handed out by `AppDatabase.payments`; its reads and writes are in this folder's files.
public struct PaymentStore: Sendable {
    let database: AppDatabase
}
