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
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    enum Columns: Int, SQLColumn {
        case id, publicID, crewID, userID, purpose, duesPeriodID, provider, providerReference, amount, currency, orderName, state, receivedAmount, refundedAmount, checkoutURL, failure, refundReason, createdAt, expiresAt, settledAt, checkedAt
    }

    static let selection = SQLSelection(Columns.self, table: "payments")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        publicID = try column(.publicID)
        crewID = try column(.crewID)
        userID = try column(.userID)
        purpose = try column(.purpose)
        duesPeriodID = try column(.duesPeriodID)
        provider = try column(.provider)
        providerReference = try column(.providerReference)
        amount = try column(.amount)
        currency = try column(.currency)
        orderName = try column(.orderName)
        state = try column(.state)
        receivedAmount = try column(.receivedAmount)
        refundedAmount = try column(.refundedAmount)
        checkoutURL = try column(.checkoutURL)
        failure = try column(.failure)
        refundReason = try column(.refundReason)
        createdAt = try column(.createdAt)
        expiresAt = try column(.expiresAt)
        settledAt = try column(.settledAt)
        checkedAt = try column(.checkedAt)
    }

    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .publicID: publicID
        case .crewID: crewID
        case .userID: userID
        case .purpose: purpose.rawValue
        case .duesPeriodID: duesPeriodID
        case .provider: provider
        case .providerReference: providerReference
        case .amount: amount
        case .currency: currency
        case .orderName: orderName
        case .state: state.rawValue
        case .receivedAmount: receivedAmount
        case .refundedAmount: refundedAmount
        case .checkoutURL: checkoutURL
        case .failure: failure
        case .refundReason: refundReason
        case .createdAt: createdAt
        case .expiresAt: expiresAt
        case .settledAt: settledAt
        case .checkedAt: checkedAt
        }
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
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    enum Columns: Int, SQLColumn {
        case id, crewID, name, amount, dueOn, createdBy, createdAt, closedAt
    }

    static let selection = SQLSelection(Columns.self, table: "duesPeriods")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        crewID = try column(.crewID)
        name = try column(.name)
        amount = try column(.amount)
        dueOn = try column(.dueOn)
        createdBy = try column(.createdBy)
        createdAt = try column(.createdAt)
        closedAt = try column(.closedAt)
    }

    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .crewID: crewID
        case .name: name
        case .amount: amount
        case .dueOn: dueOn
        case .createdBy: createdBy
        case .createdAt: createdAt
        case .closedAt: closedAt
        }
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
