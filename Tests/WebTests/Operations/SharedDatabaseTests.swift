import Foundation
import HTTP
import Storage
import Testing
import TestSupport
@testable import Web

/// Two servers on one PostgreSQL database: what one process used to keep to itself is
/// shared through the database. Each `TestSite` here is a server with its own connections.
@Suite(.enabled(if: TestDatabase.onPostgres, "two servers share PostgreSQL (TEST_DB=postgres)"))
struct SharedDatabaseTests {
    private func twoServers() throws -> (TestSite, TestSite) {
        let url = try TestDatabase.freshPostgresURL()
        return (try TestSite(database: try AppDatabase.open(postgres: url, connections: 4)),
                try TestSite(database: try AppDatabase.open(postgres: url, connections: 4)))
    }

    @Test func fiveWrongPasswordsSpreadOverBothServersLockTheAccountOnBoth() throws {
        let (first, second) = try twoServers()
        first.browser().signUp(username: "mina")
        #expect(second.browser().logIn("mina").status == .seeOther)
        for attempt in 0..<5 {
            let server = attempt.isMultiple(of: 2) ? first : second
            #expect(server.browser(address: "10.0.0.\(attempt)").logIn("mina", "wrong password here").status == .unprocessableContent)
        }
        #expect(first.browser(address: "10.0.1.1").logIn("mina").status == .tooManyRequests)
        #expect(second.browser(address: "10.0.1.2").logIn("mina").status == .tooManyRequests)
    }

    @Test func aSessionStartedOnOneServerIsValidOnTheOther() throws {
        let (first, second) = try twoServers()
        let mina = first.browser()
        mina.signUp(username: "mina")
        let elsewhere = Browser(app: second.app, language: nil, address: "127.0.0.1")
        elsewhere.cookies = mina.cookies
        #expect(elsewhere.get("/settings").status == .ok)
        #expect(elsewhere.get("/settings").bodyText.contains("@mina"))
    }

    @Test func onlyOneServerLeadsATaskAtATime() throws {
        let (first, second) = try twoServers()
        var ranInside = true
        let led = try first.database.asLeader(of: "sweep") {
            ranInside = try second.database.asLeader(of: "sweep") {}
        }
        #expect(led)
        #expect(!ranInside)
        // Let go at the end: the other server leads the next turn.
        #expect(try second.database.asLeader(of: "sweep") {})
    }
}
