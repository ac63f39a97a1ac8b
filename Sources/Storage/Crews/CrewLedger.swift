import Foundation

/// One line of a crew's books: dues paid (or waived) by a member, other income, an expense.
public struct LedgerEntry: Codable, Sendable, Equatable, StoredRecord {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case dues, waiver, income, expense
        /// A join fee paid through a provider.
        case fee
        /// Money given back through a provider.
        case refund
        /// A payment that failed, or money Moim would not take (given back at once): no amount.
        case failure

        /// What staff may record by hand; the rest only a provider's answer writes.
        public static let manual: [Kind] = [.dues, .waiver, .income, .expense]
        public var isIncome: Bool { self == .dues || self == .income || self == .fee }
        public var isExpense: Bool { self == .expense || self == .refund }
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
    /// Who collected the money: `manual` for entries staff record by hand, else the provider.
    public var provider: String
    /// Staff who recorded it by hand or refunded; nil for what a provider's answer wrote.
    public var recordedBy: Int64?
    public var createdAt: Date
    /// The payment this line records, for lines a provider wrote.
    public var paymentID: Int64?
    /// The provider's own id of what happened: the payment, the refund.
    public var reference: String?

    public static let databaseTableName = "crewLedger"

    public init(id: Int64? = nil, crewID: Int64, kind: Kind, memberID: Int64?, amount: Int, occurredOn: String, note: String,
                provider: String, recordedBy: Int64?, createdAt: Date, paymentID: Int64? = nil, reference: String? = nil) {
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
        self.paymentID = paymentID
        self.reference = reference
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

extension LedgerEntry: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    enum Columns: Int, SQLColumn {
        case id, crewID, kind, memberID, amount, occurredOn, note, provider, recordedBy, createdAt, paymentID, reference
    }

    static let selection = SQLSelection(Columns.self, table: "crewLedger")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        crewID = try column(.crewID)
        kind = try column(.kind)
        memberID = try column(.memberID)
        amount = try column(.amount)
        occurredOn = try column(.occurredOn)
        note = try column(.note)
        provider = try column(.provider)
        recordedBy = try column(.recordedBy)
        createdAt = try column(.createdAt)
        paymentID = try column(.paymentID)
        reference = try column(.reference)
    }

    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .crewID: crewID
        case .kind: kind.rawValue
        case .memberID: memberID
        case .amount: amount
        case .occurredOn: occurredOn
        case .note: note
        case .provider: provider
        case .recordedBy: recordedBy
        case .createdAt: createdAt
        case .paymentID: paymentID
        case .reference: reference
        }
    }
}

extension CrewStore {
    /// Adds an entry; owner and staff only. A dues or waiver entry must name a member of the crew.
    public func recordLedgerEntry(_ entry: LedgerEntry) throws -> LedgerEntry {
        try database.write { db in
            guard let staff = entry.recordedBy, LedgerEntry.Kind.manual.contains(entry.kind), entry.paymentID == nil else { throw StorageError.forbidden }
            try database.requireStaff(db, crewID: entry.crewID, userID: staff)
            if let member = entry.memberID {
                guard let role = try database.crewRole(db, crewID: entry.crewID, userID: member), role.isMember else { throw StorageError.notFound }
            }
            var entry = entry
            entry.id = try db.insert(entry)
            return entry
        }
    }

    public func ledger(crewID: Int64) throws -> Ledger {
        try database.read { db in
            let entries = try db.records(LedgerEntry.self, "SELECT \(LedgerEntry.selection.bare) FROM crewLedger WHERE crewID = ? ORDER BY occurredOn DESC, id DESC", [crewID])
            let income = entries.filter(\.kind.isIncome).reduce(0) { $0 + $1.amount }
            let expenses = entries.filter(\.kind.isExpense).reduce(0) { $0 + $1.amount }
            return Ledger(entries: entries, income: income, expenses: expenses)
        }
    }

    /// Each member's dues status for the period starting `periodStart` (`YYYY-MM-DD`; use the
    /// crew's first day of month or year, or the distant past for one-time fees).
    public func duesStatus(crewID: Int64, periodStart: String) throws -> [Int64: DuesStatus] {
        try database.read { db in
            var status: [Int64: DuesStatus] = [:]
            for member in try db.values("SELECT userID FROM crewMembers WHERE crewID = ? AND role != 'pending'", [crewID], as: Int64.self) {
                status[member] = .unpaid
            }
            let rows = try db.fetchAll("""
                SELECT memberID, kind FROM crewLedger WHERE crewID = ? AND kind IN ('dues', 'waiver') AND occurredOn >= ? AND memberID IS NOT NULL
                """, [crewID, periodStart]) { (member: try $0.decode("memberID", as: Int64.self), kind: try $0.decode("kind", as: String.self)) }
            for (member, kind) in rows {
                guard status[member] != nil else { continue }
                if kind == "dues" { status[member] = .paid } else if status[member] != .paid { status[member] = .waived }
            }
            return status
        }
    }
}
