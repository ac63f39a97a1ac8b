import Foundation
import Testing
import TestSupport
@testable import Storage

@Suite struct IdentitiesTests {
    let now = Date(timeIntervalSince1970: 1_795_809_600)

    /// An attempt whose state is `name` made as long as real states are.
    func attempt(_ name: String, provider: String = "kakao") -> SignInAttempt {
        let state = "state-" + name + "-0123456789"
        return SignInAttempt(state: state, provider: provider, nonce: "n-\(state)", verifier: "v-\(state)", next: "/meetups", linkUserID: nil)
    }

    @Test func aSignInAttemptIsTakenOnceByItsOwnProviderWithinItsLifetime() throws {
        let database = try TestDatabase.fresh()
        try database.accounts.startSignIn(attempt("a"), now: now)
        try database.accounts.startSignIn(attempt("b"), now: now)
        try database.accounts.startSignIn(attempt("c"), now: now)
        #expect(try database.accounts.takeSignIn(state: attempt("a").state, provider: "kakao", now: now) == attempt("a"))
        #expect(try database.accounts.takeSignIn(state: attempt("a").state, provider: "kakao", now: now) == nil)  // used
        #expect(try database.accounts.takeSignIn(state: attempt("b").state, provider: "naver", now: now) == nil)  // another provider's callback
        #expect(try database.accounts.takeSignIn(state: attempt("b").state, provider: "kakao", now: now) == nil)  // and it is spent by that try
        let late = now.addingTimeInterval(AppDatabase.signInLifetime + 1)
        #expect(try database.accounts.takeSignIn(state: attempt("c").state, provider: "kakao", now: late) == nil)
        #expect(try database.accounts.takeSignIn(state: attempt("unknown").state, provider: "kakao", now: now) == nil)
    }

    @Test func aProviderAccountBelongsToOneMemberAndAMemberHasOneOfEachProvider() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("mina", "jun")
        try database.accounts.link(provider: "kakao", subject: "k1", userID: ids[0], now: now)
        #expect(try database.accounts.user(provider: "kakao", subject: "k1")?.username == "mina")
        #expect(throws: StorageError.duplicate) { try database.accounts.link(provider: "kakao", subject: "k1", userID: ids[1], now: now) }
        #expect(throws: StorageError.duplicate) { try database.accounts.link(provider: "kakao", subject: "k2", userID: ids[0], now: now) }
        try database.accounts.link(provider: "google", subject: "g1", userID: ids[0], now: now)
        #expect(try database.accounts.identities(userID: ids[0]) == ["google", "kakao"])
    }

    @Test func theLastWayInCannotBeUnlinked() throws {
        // Given a member made through a provider, with no password
        let database = try TestDatabase.fresh()
        let identity = PendingIdentity(provider: "kakao", subject: "k1", email: "mina@example.com", name: "Mina", next: "/")
        let mina = try database.accounts.createUser(
            User(username: "mina", email: "mina@example.com", passwordHash: "", displayName: "Mina"), identity: identity, now: now)
        // Then her only provider stays
        #expect(throws: StorageError.locked) { try database.accounts.unlink(provider: "kakao", userID: mina.storedID) }
        // Until she has another way in
        try database.accounts.link(provider: "naver", subject: "n1", userID: mina.storedID, now: now)
        try database.accounts.unlink(provider: "kakao", userID: mina.storedID)
        #expect(try database.accounts.identities(userID: mina.storedID) == ["naver"])
    }

    @Test func aNewcomerIsMadeWithTheirProviderAccountOrNotAtAll() throws {
        let database = try TestDatabase.fresh()
        _ = try database.members("mina")
        let identity = PendingIdentity(provider: "kakao", subject: "k9", email: nil, name: nil, next: "/")
        let taken = User(username: "mina", email: "other@example.com", passwordHash: "", displayName: "Other")
        #expect(throws: StorageError.usernameTaken) { try database.accounts.createUser(taken, identity: identity, now: now) }
        // Nothing was half made: the provider account is still free
        #expect(try database.accounts.user(provider: "kakao", subject: "k9") == nil)
    }

    @Test func aPendingIdentityIsKeptForTheSignInLifetime() throws {
        let database = try TestDatabase.fresh()
        let identity = PendingIdentity(provider: "google", subject: "g1", email: "new@example.com", name: "New", next: "/crews")
        try database.accounts.keepPendingIdentity(identity, token: "pending-token-0123456789", now: now)
        #expect(try database.accounts.pendingIdentity(token: "pending-token-0123456789", now: now) == identity)
        #expect(try database.accounts.pendingIdentity(token: "pending-token-0123456789", now: now.addingTimeInterval(AppDatabase.signInLifetime + 1)) == nil)
        try database.accounts.dropPendingIdentity(token: "pending-token-0123456789")
        #expect(try database.accounts.pendingIdentity(token: "pending-token-0123456789", now: now) == nil)
    }
}
