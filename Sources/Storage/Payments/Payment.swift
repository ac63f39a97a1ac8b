import Foundation

/// One attempt to pay a crew through a payment provider: the join fee, or a period's dues.
/// The amount is fixed when the attempt starts, in the crew's currency's whole units (won,
/// dollars), and the member is taken in only when the provider says exactly that came in.
public struct Payment: Sendable, Equatable, StoredRecord {
    public enum Purpose: String, Sendable, CaseIterable {
        case join, dues
    }

    public enum State: String, Sendable, CaseIterable {
        /// The window is open, or the provider has not answered yet.
        case pending
        /// Paid, exactly; `refundedAmount` may have gone back since.
        case paid
        /// The provider said the attempt failed.
        case failed
        /// Closed in the window, or replaced by a newer attempt.
        case cancelled
        /// Nothing came before the attempt's time ran out.
        case expired
        /// Money came that Moim would not take (another amount, a full crew, too late): given back.
        case voided
        /// Paid, then given back in full.
        case refunded

        /// Whether money may sit at the provider for it.
        public var holdsMoney: Bool { self == .paid || self == .voided || self == .refunded }
    }

    public var id: Int64?
    /// The id the provider knows it by (PortOne's paymentId), and the one in its addresses.
    public var publicID: String
    public var crewID: Int64
    public var userID: Int64?
    public var purpose: Purpose
    public var duesPeriodID: Int64?
    public var provider: String
    /// The provider's own id when it is not `publicID` (a Stripe Checkout Session).
    public var providerReference: String?
    public var amount: Int
    public var currency: String
    /// What the member sees in the window and on the receipt.
    public var orderName: String
    public var state: State
    /// What the provider said came in, in whole units.
    public var receivedAmount: Int
    public var refundedAmount: Int
    /// Where the browser pays (Stripe's page), so that a second click goes to the same one.
    public var checkoutURL: String?
    /// Why it failed or was voided, for the member and staff.
    public var failure: String
    /// Why staff refunded, shown to the member.
    public var refundReason: String
    public var createdAt: Date
    public var expiresAt: Date
    public var settledAt: Date?
    /// When the provider was last asked about it.
    public var checkedAt: Date?

    public static let databaseTableName = "payments"

    /// What is left to give back.
    public var refundable: Int { max(0, receivedAmount - refundedAmount) }
}

extension Payment: SQLRecord {
    static let columns = [
        "id", "publicID", "crewID", "userID", "purpose", "duesPeriodID", "provider", "providerReference", "amount", "currency", "orderName",
        "state", "receivedAmount", "refundedAmount", "checkoutURL", "failure", "refundReason", "createdAt", "expiresAt", "settledAt", "checkedAt",
    ]
    static let selection = SQLSelection(columns, table: "payments")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        try row.checkColumns(Self.columns, from: offset)
        id = try row.decode(atIndex: offset)
        publicID = try row.decode(atIndex: offset + 1)
        crewID = try row.decode(atIndex: offset + 2)
        userID = try row.decode(atIndex: offset + 3)
        purpose = try row.decodeRawValue(atIndex: offset + 4)
        duesPeriodID = try row.decode(atIndex: offset + 5)
        provider = try row.decode(atIndex: offset + 6)
        providerReference = try row.decode(atIndex: offset + 7)
        amount = try row.decode(atIndex: offset + 8)
        currency = try row.decode(atIndex: offset + 9)
        orderName = try row.decode(atIndex: offset + 10)
        state = try row.decodeRawValue(atIndex: offset + 11)
        receivedAmount = try row.decode(atIndex: offset + 12)
        refundedAmount = try row.decode(atIndex: offset + 13)
        checkoutURL = try row.decode(atIndex: offset + 14)
        failure = try row.decode(atIndex: offset + 15)
        refundReason = try row.decode(atIndex: offset + 16)
        createdAt = try row.date(atIndex: offset + 17)
        expiresAt = try row.date(atIndex: offset + 18)
        settledAt = try row.optionalDate(atIndex: offset + 19)
        checkedAt = try row.optionalDate(atIndex: offset + 20)
    }

    var columnValues: [(any SQLBindable)?] {
        [publicID, crewID, userID, purpose.rawValue, duesPeriodID, provider, providerReference, amount, currency, orderName, state.rawValue,
         receivedAmount, refundedAmount, checkoutURL, failure, refundReason, createdAt, expiresAt, settledAt, checkedAt]
    }
}

/// A period of dues staff open: "June dues, ₩20,000, due by 30 June".
public struct DuesPeriod: Sendable, Equatable, StoredRecord {
    public var id: Int64?
    public var crewID: Int64
    public var name: String
    public var amount: Int
    /// `YYYY-MM-DD`.
    public var dueOn: String
    public var createdBy: Int64?
    public var createdAt: Date
    public var closedAt: Date?

    public static let databaseTableName = "duesPeriods"

    public init(crewID: Int64, name: String, amount: Int, dueOn: String, createdBy: Int64?, createdAt: Date) {
        self.crewID = crewID
        self.name = name
        self.amount = amount
        self.dueOn = dueOn
        self.createdBy = createdBy
        self.createdAt = createdAt
    }
}

extension DuesPeriod: SQLRecord {
    static let columns = ["id", "crewID", "name", "amount", "dueOn", "createdBy", "createdAt", "closedAt"]
    static let selection = SQLSelection(columns, table: "duesPeriods")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        try row.checkColumns(Self.columns, from: offset)
        id = try row.decode(atIndex: offset)
        crewID = try row.decode(atIndex: offset + 1)
        name = try row.decode(atIndex: offset + 2)
        amount = try row.decode(atIndex: offset + 3)
        dueOn = try row.decode(atIndex: offset + 4)
        createdBy = try row.decode(atIndex: offset + 5)
        createdAt = try row.date(atIndex: offset + 6)
        closedAt = try row.optionalDate(atIndex: offset + 7)
    }

    var columnValues: [(any SQLBindable)?] {
        [crewID, name, amount, dueOn, createdBy, createdAt, closedAt]
    }
}

/// What a provider's answer means for a payment, decided by the caller that asked it.
public enum PaymentVerdict: Sendable, Equatable {
    /// Exactly the amount, currency and store: `received` whole units, under the provider's id.
    case paid(reference: String?)
    /// Money came, but not what was asked (another amount, currency or store): `received`.
    case mismatched(received: Int, why: String)
    case failed(String)
    /// Closed without paying.
    case cancelled
    /// Still open at the provider.
    case pending
}

/// What settling a payment did.
public enum Settlement: Sendable, Equatable {
    /// It was settled already: nothing changed (a second webhook, a replayed return).
    case unchanged
    /// Paid: a member now (open and invite crews), an applicant staff will decide on, or dues settled.
    case joined, applied, duesPaid
    /// Money came that Moim would not take: `amount` is to be given back.
    case refundDue(amount: Int)
    /// Failed, cancelled or expired: nothing was taken.
    case closed
}
