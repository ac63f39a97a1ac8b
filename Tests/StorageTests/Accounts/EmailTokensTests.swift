import Foundation
import Testing
import TestSupport
@testable import Storage

@Suite struct EmailTokensTests {
    let now = Date(timeIntervalSince1970: 1_795_809_600)

    @Test func aResetLinkWorksOnceSetsThePasswordAndEndsEverySession() throws {
        // Given a member signed in on a browser, and two reset links mailed to her
        let database = try TestDatabase.fresh()
        let mina = try database.members("mina")[0]
        _ = try database.sessions.createSession(userID: mina, tokenHash: tokenHash(1), csrfToken: "c", now: now)
        try database.accounts.createEmailToken(userID: mina, purpose: .reset, email: "mina@example.com", tokenHash: tokenHash(7), validFor: 3_600, now: now)
        try database.accounts.createEmailToken(userID: mina, purpose: .reset, email: "mina@example.com", tokenHash: tokenHash(8), validFor: 3_600, now: now)
        #expect(try database.accounts.emailTokenCount(userID: mina, purpose: .reset, since: now.addingTimeInterval(-1)) == 2)
        #expect(try database.accounts.resetTokenUser(tokenHash: tokenHash(7), now: now).map(\.username) == .success("mina"))

        // When she follows one
        let reset = try database.accounts.resetPassword(tokenHash: tokenHash(7), passwordHash: "$argon2id$new", now: now)

        // Then her password is the new one, the browser is signed out and neither link works again
        #expect(reset.map(\.username) == .success("mina"))
        #expect(try database.accounts.user(username: "mina")?.passwordHash == "$argon2id$new")
        #expect(try database.sessions.session(tokenHash: tokenHash(1), lifetime: SessionLifetime(), now: now) == nil)
        #expect(try database.accounts.resetPassword(tokenHash: tokenHash(7), passwordHash: "x", now: now) == .failure(.invalid))
        #expect(try database.accounts.resetPassword(tokenHash: tokenHash(8), passwordHash: "x", now: now) == .failure(.invalid))
    }

    @Test func anExpiredOrUnknownLinkIsRefused() throws {
        let database = try TestDatabase.fresh()
        let mina = try database.members("mina")[0]
        try database.accounts.createEmailToken(userID: mina, purpose: .reset, email: "mina@example.com", tokenHash: tokenHash(7), validFor: 3_600, now: now)
        #expect(try database.accounts.resetTokenUser(tokenHash: tokenHash(7), now: now.addingTimeInterval(3_601)) == .failure(.expired))
        #expect(try database.accounts.resetTokenUser(tokenHash: tokenHash(9), now: now) == .failure(.invalid))
        // A verification link is not a reset link
        try database.accounts.createEmailToken(userID: mina, purpose: .verify, email: "mina@example.com", tokenHash: tokenHash(5), validFor: 3_600, now: now)
        #expect(try database.accounts.resetTokenUser(tokenHash: tokenHash(5), now: now) == .failure(.invalid))
    }

    @Test func aVerificationLinkProvesOnlyTheAddressItWasSentTo() throws {
        // Given a link to her address, which she then changes
        let database = try TestDatabase.fresh()
        let mina = try database.members("mina")[0]
        try database.accounts.createEmailToken(userID: mina, purpose: .verify, email: "mina@example.com", tokenHash: tokenHash(5), validFor: 3_600, now: now)
        try database.accounts.changeEmail(userID: mina, to: "mina@new.example.org", now: now)
        // Then the old link proves nothing
        #expect((try database.accounts.verifyEmail(tokenHash: tokenHash(5), now: now)).map(\.username) != .success("mina"))
        // And an address someone else has cannot be taken
        _ = try database.members("jun")
        #expect(throws: StorageError.emailTaken) { try database.accounts.changeEmail(userID: mina, to: "jun@example.com", now: now) }
    }
}
