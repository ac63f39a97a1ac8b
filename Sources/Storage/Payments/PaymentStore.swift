extension AppDatabase {
    /// Payments of fees and dues, and dues periods.
    public var payments: PaymentStore { PaymentStore(database: self) }
}

/// The reads and writes of one area, `AppDatabase.payments`: its methods are in this folder's
/// files, each an `extension PaymentStore`.
public struct PaymentStore: Sendable {
    let database: AppDatabase
}
