import Foundation
import Testing
import TestSupport
@testable import Storage

/// Sessions last while used and never past their absolute lifetime.
@Suite struct SessionQueriesTests {
    @Test func aSessionEndsWhenIdleOrTooOldAndTheSweepRemovesIt() throws {
        let database = try TestDatabase.fresh()
        let mina = try database.members("mina")[0]
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        var lifetime = SessionLifetime()
        lifetime.idle = 3_600
        lifetime.absolute = 10 * 3_600
        let hash = Data(repeating: 1, count: 32)
        let session = try database.sessions.createSession(userID: mina, tokenHash: hash, csrfToken: "t", now: start)
        // Used every half hour, it lives on until its absolute end
        for step in 1...19 {
            let now = start.addingTimeInterval(Double(step) * 1_800)
            #expect(try database.sessions.session(tokenHash: hash, lifetime: lifetime, now: now)?.user.username == "mina")
            try database.sessions.touchSession(id: session.storedID, now: now)
        }
        #expect(try database.sessions.session(tokenHash: hash, lifetime: lifetime, now: start.addingTimeInterval(10 * 3_600 + 1)) == nil)
        // Left unused for more than the idle time, another one is over
        let other = Data(repeating: 2, count: 32)
        _ = try database.sessions.createSession(userID: mina, tokenHash: other, csrfToken: "u", now: start)
        #expect(try database.sessions.session(tokenHash: other, lifetime: lifetime, now: start.addingTimeInterval(3_601)) == nil)
        // The sweep removes both, and only expired ones
        _ = try database.sessions.createSession(userID: mina, tokenHash: Data(repeating: 3, count: 32), csrfToken: "v", now: start.addingTimeInterval(36_000))
        #expect(try database.sessions.deleteExpiredSessions(lifetime: lifetime, now: start.addingTimeInterval(36_100)) == 2)
        #expect(try database.sessions.sessionCount(userID: mina) == 1)
    }
}
