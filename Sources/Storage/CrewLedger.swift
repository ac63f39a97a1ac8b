import Foundation
import GRDB

/// One line of a crew's books: dues paid (or waived) by a member, other income, an expense.
public struct LedgerEntry: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord, StoredRecord {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case dues, waiver, income, expense
    }

    public var id: Int64?
    public var crewID: Int64
    public var kind: Kind
    public var memberID: Int64?
    /// In the crew's currency's smallest common unit (won, dollars…), never negative.
    public var amount: Int
    /// `YYYY-MM-DD`.
    public var occurredOn: String
    public var note: String
    /// Who collected the money: `manual` for entries staff record by hand.
    public var provider: String
    public var recordedBy: Int64
    public var createdAt: Date

    public static let databaseTableName = "crewLedger"

    public init(id: Int64? = nil, crewID: Int64, kind: Kind, memberID: Int64?, amount: Int, occurredOn: String, note: String,
                provider: String, recordedBy: Int64, createdAt: Date) {
        self.id = id
        self.crewID = crewID
        self.kind = kind
        self.memberID = memberID
        self.amount = amount
        self.occurredOn = occurredOn
        self.note = note
        self.provider = provider
        self.recordedBy = recordedBy
        self.createdAt = createdAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// A crew's books: every entry, and the totals.
public struct Ledger: Sendable {
    public var entries: [LedgerEntry]
    public var income: Int
    public var expenses: Int
    public var balance: Int { income - expenses }
}

/// Whether a member's dues for the current period are settled.
public enum DuesStatus: String, Sendable {
    case paid, waived, unpaid
}

extension AppDatabase {
    /// Adds an entry; owner and staff only. A dues or waiver entry must name a member of the crew.
    public func recordLedgerEntry(_ entry: LedgerEntry) throws -> LedgerEntry {
        try writer.write { db in
            try requireStaff(db, crewID: entry.crewID, userID: entry.recordedBy)
            if let member = entry.memberID {
                guard let role = try crewRole(db, crewID: entry.crewID, userID: member), role.isMember else { throw StorageError.notFound }
            }
            var entry = entry
            try entry.insert(db)
            return entry
        }
    }

    public func ledger(crewID: Int64) throws -> Ledger {
        try reader.read { db in
            let entries = try LedgerEntry.fetchAll(db.cachedStatement(sql: "SELECT * FROM crewLedger WHERE crewID = ? ORDER BY occurredOn DESC, id DESC"),
                                                   arguments: [crewID])
            let income = entries.filter { $0.kind == .dues || $0.kind == .income }.reduce(0) { $0 + $1.amount }
            let expenses = entries.filter { $0.kind == .expense }.reduce(0) { $0 + $1.amount }
            return Ledger(entries: entries, income: income, expenses: expenses)
        }
    }

    /// Each member's dues status for the period starting `periodStart` (`YYYY-MM-DD`; use the
    /// crew's first day of month or year, or the distant past for one-time fees).
    public func duesStatus(crewID: Int64, periodStart: String) throws -> [Int64: DuesStatus] {
        try reader.read { db in
            var status: [Int64: DuesStatus] = [:]
            for member in try Int64.fetchAll(db.cachedStatement(sql: "SELECT userID FROM crewMembers WHERE crewID = ? AND role != 'pending'"), arguments: [crewID]) {
                status[member] = .unpaid
            }
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT memberID, kind FROM crewLedger WHERE crewID = ? AND kind IN ('dues', 'waiver') AND occurredOn >= ? AND memberID IS NOT NULL
                """), arguments: [crewID, periodStart])
            for row in rows {
                let member: Int64 = row["memberID"]
                guard status[member] != nil else { continue }
                if row["kind"] == "dues" { status[member] = .paid } else if status[member] != .paid { status[member] = .waived }
            }
            return status
        }
    }
}
