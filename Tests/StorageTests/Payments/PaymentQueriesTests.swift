import Foundation
import Testing
import TestSupport
@testable import Storage

/// Payments: one open attempt per member and purpose, and every list readable on both engines.
@Suite struct PaymentQueriesTests {
    @Test func anAttemptStartedTwiceIsOneAndTheStaffListFiltersByState() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("owner", "mina")
        let crew = try database.crews.createCrew(ownerID: ids[0], fields: CrewFields(
            slug: "paying", name: "Paying", sport: .running, region: nil, description: "", descriptionHTML: "", meetingTime: "",
            meetingPlace: "", feeAmount: 10_000, feeCurrency: "KRW", feePeriod: .once, joinPolicy: .open, memberCap: nil), inviteCode: nil).storedID
        let request = { (publicID: String) in
            PaymentRequest(crewID: crew, userID: ids[1], purpose: .join, duesPeriodID: nil, provider: "portone", amount: 10_000, currency: "KRW",
                           orderName: "Paying · join", inviteCode: nil, publicID: publicID, lifetime: 3_600)
        }
        let first = try database.payments.openPayment(request("pay_aaaaaaaaaaaaaaaa"))
        let again = try database.payments.openPayment(request("pay_bbbbbbbbbbbbbbbb"))
        #expect(first.isNew && !again.isNew)
        #expect(again.payment.publicID == "pay_aaaaaaaaaaaaaaaa")
        // The staff's list, whole and by state
        #expect(try database.payments.allPayments(state: nil, before: nil).map(\.payment.publicID) == ["pay_aaaaaaaaaaaaaaaa"])
        #expect(try database.payments.allPayments(state: .pending, before: nil).count == 1)
        #expect(try database.payments.allPayments(state: .paid, before: nil).isEmpty)
        #expect(try database.payments.allPayments(state: nil, before: first.payment.id).isEmpty)
    }
}
