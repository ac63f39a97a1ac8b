import Foundation
import Testing
import TestSupport
@testable import Storage

@Suite struct WorkplacesTests {
    let now = Date(timeIntervalSince1970: 1_795_809_600)

    @Test func theRightCodeVerifiesTheDomainAndUsesTheCodeUp() throws {
        let database = try TestDatabase.fresh()
        let mina = try database.members("mina")[0]
        try database.profiles.startWorkplaceCheck(userID: mina, domain: "example.co.kr", addressHash: tokenHash(1), codeHash: tokenHash(2),
                                                  expiresAt: now.addingTimeInterval(600), now: now)
        #expect(try database.profiles.workplaceCheck(userID: mina, now: now)?.domain == "example.co.kr")
        #expect(try database.profiles.confirmWorkplace(userID: mina, codeHash: tokenHash(2), now: now) == .verified(domain: "example.co.kr"))
        #expect(try database.accounts.user(username: "mina")?.workplaceDomain == "example.co.kr")
        #expect(try database.profiles.confirmWorkplace(userID: mina, codeHash: tokenHash(2), now: now) == .noCode)
    }

    @Test func wrongCodesCountDownThenTheCodeIsGone() throws {
        let database = try TestDatabase.fresh()
        let mina = try database.members("mina")[0]
        try database.profiles.startWorkplaceCheck(userID: mina, domain: "example.co.kr", addressHash: tokenHash(1), codeHash: tokenHash(2),
                                                  expiresAt: now.addingTimeInterval(600), now: now)
        let tries = AppDatabase.workplaceCodeTries
        for left in (0..<tries).reversed() {
            #expect(try database.profiles.confirmWorkplace(userID: mina, codeHash: tokenHash(3), now: now) == .wrongCode(triesLeft: left))
        }
        // The right code, too late: all tries are used
        #expect(try database.profiles.confirmWorkplace(userID: mina, codeHash: tokenHash(2), now: now) == .noCode)
        #expect(try database.accounts.user(username: "mina")?.workplaceDomain == nil)
    }

    @Test func anExpiredCodeCannotBeTyped() throws {
        let database = try TestDatabase.fresh()
        let mina = try database.members("mina")[0]
        try database.profiles.startWorkplaceCheck(userID: mina, domain: "example.co.kr", addressHash: tokenHash(1), codeHash: tokenHash(2),
                                                  expiresAt: now.addingTimeInterval(600), now: now)
        let later = now.addingTimeInterval(601)
        #expect(try database.profiles.workplaceCheck(userID: mina, now: later) == nil)
        #expect(try database.profiles.confirmWorkplace(userID: mina, codeHash: tokenHash(2), now: later) == .noCode)
    }

    @Test func oneAddressVouchesForOneMemberUntilTheBadgeIsTakenOff() throws {
        // Given mina verified through an address
        let database = try TestDatabase.fresh()
        let (mina, jun) = try { let ids = try database.members("mina", "jun"); return (ids[0], ids[1]) }()
        for member in [mina, jun] {
            try database.profiles.startWorkplaceCheck(userID: member, domain: "example.co.kr", addressHash: tokenHash(1), codeHash: tokenHash(2),
                                                      expiresAt: now.addingTimeInterval(600), now: now)
        }
        #expect(try database.profiles.confirmWorkplace(userID: mina, codeHash: tokenHash(2), now: now) == .verified(domain: "example.co.kr"))
        // Then jun cannot use the same address
        #expect(try database.profiles.confirmWorkplace(userID: jun, codeHash: tokenHash(2), now: now) == .addressTaken)
        // Until mina takes her badge off
        try database.profiles.removeWorkplace(userID: mina)
        try database.profiles.startWorkplaceCheck(userID: jun, domain: "example.co.kr", addressHash: tokenHash(1), codeHash: tokenHash(4),
                                                  expiresAt: now.addingTimeInterval(600), now: now)
        #expect(try database.profiles.confirmWorkplace(userID: jun, codeHash: tokenHash(4), now: now) == .verified(domain: "example.co.kr"))
    }
}
