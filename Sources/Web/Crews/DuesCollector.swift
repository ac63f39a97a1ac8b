import Foundation
import Storage

/// Where a crew's dues come from.
///
/// Moim reaches no payment gateway, so its one collector records what staff enter by hand. A
/// gateway would be another conformance: it charges the member, then records the entry with
/// its own `provider` name and reference in the note, through the same ledger.
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
        return try database.recordLedgerEntry(entry)
    }
}
