import Foundation
import Testing
import TestSupport
@testable import Storage

/// `settlePayment`'s table, case by case: what a provider's verdict does to an attempt in each
/// state it can be in, and what the crew's ledger and membership show after it.
@Suite struct PaymentSettlingTests {
    private let now = Date(timeIntervalSince1970: 1_780_000_000)

    /// A crew with a ₩10,000 fee, and Mina's open attempt to join it.
    private struct Attempt {
        let database: AppDatabase
        let crewID: Int64
        let minaID: Int64
        let payment: Payment

        init(now: Date, lifetime: TimeInterval = 3_600) throws {
            database = try TestDatabase.fresh()
            let ids = try database.members("owner", "mina")
            minaID = ids[1]
            crewID = try database.crews.createCrew(ownerID: ids[0], fields: CrewFields(
                slug: "paying", name: "Paying", sport: .running, region: nil, description: "", descriptionHTML: "", meetingTime: "",
                meetingPlace: "", feeAmount: 10_000, feeCurrency: "KRW", feePeriod: .once, joinPolicy: .open, memberCap: nil), inviteCode: nil).storedID
            payment = try database.payments.openPayment(PaymentRequest(
                crewID: crewID, userID: minaID, purpose: .join, duesPeriodID: nil, provider: "portone", amount: 10_000, currency: "KRW",
                orderName: "Paying · join", inviteCode: nil, publicID: "pay_settling0000000", lifetime: lifetime), now: now).payment
        }

        func settle(_ verdict: PaymentVerdict, received: Int = 10_000, at now: Date) throws -> (Payment, Settlement) {
            try database.payments.settlePayment(id: payment.storedID, verdict: verdict, received: received, today: "2026-05-28", now: now)
        }

        var isMember: Bool { get throws { try database.crews.crewRole(crewID: crewID, userID: minaID)?.isMember == true } }
        var ledgerKinds: [LedgerEntry.Kind] { get throws { try database.read { db in
            try db.records(LedgerEntry.self, "SELECT \(LedgerEntry.selection.bare) FROM crewLedger WHERE crewID = ? ORDER BY id", [crewID]).map(\.kind)
        } } }
    }

    @Test func aPendingAttemptPaidTakesTheFeeAndMakesAMember() throws {
        let attempt = try Attempt(now: now)
        let (payment, outcome) = try attempt.settle(.paid(reference: "tx_1"), at: now)
        #expect(outcome == .joined)
        #expect(payment.state == .paid && payment.receivedAmount == 10_000 && payment.providerReference == "tx_1")
        #expect(try attempt.isMember)
        #expect(try attempt.ledgerKinds == [.fee])
    }

    @Test func theSamePaymentSettledTwiceChangesNothingTheSecondTime() throws {
        let attempt = try Attempt(now: now)
        _ = try attempt.settle(.paid(reference: "tx_1"), at: now)
        let (payment, outcome) = try attempt.settle(.paid(reference: "tx_1"), at: now.addingTimeInterval(5))
        #expect(outcome == .unchanged)
        #expect(payment.state == .paid)
        #expect(try attempt.ledgerKinds == [.fee])
    }

    @Test func anotherAmountIsVoidedAndOwedBack() throws {
        let attempt = try Attempt(now: now)
        let (payment, outcome) = try attempt.settle(.mismatched(received: 9_000, why: "another amount"), at: now)
        #expect(outcome == .refundDue(amount: 9_000))
        #expect(payment.state == .voided && payment.failure == "another amount")
        #expect(try !attempt.isMember)
        #expect(try attempt.ledgerKinds == [.failure])
    }

    @Test func aMismatchWithNothingReceivedIsAFailure() throws {
        let attempt = try Attempt(now: now)
        let (payment, outcome) = try attempt.settle(.mismatched(received: 0, why: "wrong store"), at: now)
        #expect(outcome == .closed)
        #expect(payment.state == .failed && payment.failure == "wrong store")
    }

    @Test func aFailureClosesTheAttemptWithItsReasonCutTo300Characters() throws {
        let attempt = try Attempt(now: now)
        let (payment, outcome) = try attempt.settle(.failed(String(repeating: "x", count: 500)), at: now)
        #expect(outcome == .closed)
        #expect(payment.state == .failed && payment.failure.count == 300 && payment.settledAt == now)
        #expect(try attempt.ledgerKinds == [.failure])
    }

    @Test func aCancelledAttemptIsCancelledOrExpiredByItsTime() throws {
        let early = try Attempt(now: now)
        #expect(try early.settle(.cancelled, at: now.addingTimeInterval(60)).0.state == .cancelled)
        let late = try Attempt(now: now, lifetime: 60)
        let (payment, outcome) = try late.settle(.cancelled, at: now.addingTimeInterval(120))
        #expect(outcome == .closed && payment.state == .expired)
    }

    @Test func moneyForAnAttemptAlreadyClosedIsOwedBack() throws {
        let attempt = try Attempt(now: now)
        _ = try attempt.settle(.cancelled, at: now)
        let (payment, outcome) = try attempt.settle(.paid(reference: "tx_late"), received: 10_000, at: now.addingTimeInterval(30))
        #expect(outcome == .refundDue(amount: 10_000))
        #expect(payment.state == .voided && payment.failure == "paid after the attempt had closed")
        #expect(try !attempt.isMember)
    }

    @Test func stillPendingAtTheProviderChangesNothing() throws {
        let attempt = try Attempt(now: now)
        let (payment, outcome) = try attempt.settle(.pending, at: now)
        #expect(outcome == .unchanged && payment.state == .pending && payment.checkedAt == now)
        #expect(try attempt.ledgerKinds.isEmpty)
    }
}
