import Foundation
import Testing
import TestSupport
@testable import Storage

/// The outbox: each message claimed by one sender at a time, retried, and given up when stale.
@Suite struct OutboxTests {
    private func mail(_ to: String, expiresIn seconds: TimeInterval, from now: Date) -> OutgoingMail {
        OutgoingMail(userID: nil, kind: .notice, sender: "moim@example.org", recipient: to, message: Array("Subject: hi\r\n\r\nhello".utf8),
                     expiresAt: now.addingTimeInterval(seconds))
    }

    @Test func twoSendersNeverClaimTheSameMessage() throws {
        let database = try TestDatabase.fresh()
        let now = Date(timeIntervalSince1970: 1_780_000_000)
        for index in 0..<5 { try database.mail.enqueueMail(mail("m\(index)@example.com", expiresIn: 3_600, from: now), now: now) }
        try database.mail.enqueueMail(mail("stale@example.com", expiresIn: 1, from: now), now: now)
        let later = now.addingTimeInterval(10)
        let first = try database.mail.claimDueMail(limit: 3, owner: 1, now: later)
        let second = try database.mail.claimDueMail(limit: 10, owner: 2, now: later)
        #expect(first.count == 3 && second.count == 2)
        #expect(Set(first.map(\.id)).isDisjoint(with: second.map(\.id)))
        // The stale one is failed, not sent
        #expect(try database.mail.outboxCounts().failed == 1)
        // A deferred message comes back when due, to whoever claims then
        let deferred = try #require(first.first?.id)
        try database.mail.markMailDeferred(id: deferred, error: "421 try later", next: later.addingTimeInterval(60))
        #expect(try database.mail.claimDueMail(owner: 3, now: later.addingTimeInterval(30)).isEmpty)
        #expect(try database.mail.claimDueMail(owner: 3, now: later.addingTimeInterval(61)).map(\.id) == [deferred])
        // The claims of a sender that died are let go at once
        try database.mail.releaseClaims(ofDeadProcesses: { $0 != 2 }, now: later.addingTimeInterval(62))
        #expect(Set(try database.mail.claimDueMail(owner: 3, now: later.addingTimeInterval(63)).map(\.id)) == Set(second.map(\.id)))
    }
}
