import Foundation
import Storage

/// Where a crew's dues come from.
///
/// Staff record here what they received in person or by bank transfer. Money paid online
/// reaches the ledger another way: the provider's answer writes its line when the payment
/// settles (`Payments/PaymentSettling.swift`).
protocol DuesCollector: Sendable {
    /// Stored with every entry it records.
    var provider: String { get }

    /// Records a payment, waiver, income or expense entered by `entry.recordedBy`.
    func record(_ entry: LedgerEntry, in database: AppDatabase) throws -> LedgerEntry
}

/// Staff record payments they received in person or by bank transfer.
struct ManualDuesCollector: DuesCollector {
    let provider = "manual"

    func record(_ entry: LedgerEntry, in database: AppDatabase) throws -> LedgerEntry {
        var entry = entry
        entry.provider = provider
        return try database.crews.recordLedgerEntry(entry)
    }
}
