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

    @Test func aMessageSentThroughOneServerArrivesOnTheOthersStreams() throws {
        let (first, second) = try twoServers()
        let people = first.people("mina", "jun")
        let url = try #require(people[0].startCrew("Dawn Runners"))
        people[1].post(url + "/join", [], from: url)
        let crewID = try #require(try first.database.crews.crew(slug: "dawn-runners")?.id)
        let roomID = try #require(try first.database.talk.crewRoom(crewID: crewID)).storedID
        // Jun has the room open on the second server
        let server = HTTPServer(configuration: LiveSite.serverConfiguration(), handler: second.app)
        try server.start()
        defer { server.stop() }
        let client = try LoopbackClient(port: server.port, readTimeout: 2)
        let cookie = people[1].cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        client.send("GET /events?room=\(roomID) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nCookie: \(cookie)\r\n\r\n")
        let jun = LiveEventsTests.Stream(client: client)
        jun.read { $0.contains { $0.name == "talk" } }
        // Mina writes through the first, then edits it there
        let room = Paths.talkRoom(roomID)
        #expect(people[0].post(room, [("body", "Across **servers**")], from: room).status == .seeOther)
        let message = try #require(jun.read { $0.contains { $0.name == "message" } }.first { $0.name == "message" })
        #expect((message.json["html"] as? String)?.contains("Across <strong>servers</strong>") == true)
        let id = try #require(message.json["id"] as? Int)
        let edit = Paths.talkMessage(Int64(id)) + "/edit"
        #expect(people[0].post(edit, [("body", "Across both servers")], from: edit).status == .seeOther)
        let edited = jun.read { $0.contains { $0.name == "edit" } }.first { $0.name == "edit" }
        #expect((edited?.json["html"] as? String)?.contains("Across both servers") == true)
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
