import Foundation
import HTTP
import Storage
import Testing
import TestSupport
@testable import Web

/// A room over `GET /events` on a real socket: its messages reach its members as they are
/// sent, count as read for those who have it open, and wait, counted, for the others.
@Suite(.serialized) struct TalkLiveTests {
    typealias Stream = LiveEventsTests.Stream

    final class Crew {
        let site: TestSite
        let server: HTTPServer
        let people: [Browser]
        let room: String
        let roomID: Int64

        init() throws {
            let site = try TestSite()
            self.site = site
            server = HTTPServer(configuration: LiveSite.serverConfiguration(), handler: site.app)
            try server.start()
            people = site.people("mina", "jun", "ara", "outsider")
            let url = try #require(people[0].startCrew("Dawn Runners"))
            for member in people[1...2] { member.post(url + "/join", [], from: url) }
            let crewID = try #require(try site.database.crews.crew(slug: "dawn-runners")?.id)
            roomID = try #require(try site.database.talk.crewRoom(crewID: crewID)?.id)
            room = Paths.talkRoom(roomID)
        }

        deinit { server.stop() }

        func open(_ browser: Browser, query: String = "") throws -> Stream {
            let client = try LoopbackClient(port: server.port, readTimeout: 2)
            let cookie = "Cookie: " + browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") + "\r\n"
            client.send("GET /events\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\(cookie)\r\n")
            return Stream(client: client)
        }
    }

    @Test func aMessageReachesTheRoomAtOnceAndCountsForThoseElsewhere() throws {
        let crew = try Crew()
        // Jun has the room open; Ara is on another page
        let jun = try crew.open(crew.people[1], query: "?room=\(crew.roomID)")
        let ara = try crew.open(crew.people[2])
        jun.read { $0.contains { $0.name == "talk" } }
        ara.read { $0.contains { $0.name == "talk" } }

        let sentAt = Date()
        #expect(crew.people[0].post(crew.room, [("body", "<b>7am</b> at gate 2 <script>x</script>")], from: crew.room).status == .seeOther)
        let message = try #require(jun.read { $0.contains { $0.name == "message" } }.first { $0.name == "message" })
        #expect(Date().timeIntervalSince(sentAt) < 1)
        // As the room page shows it: raw HTML left out, with its author, Jun's own actions only
        let html = try #require(message.json["html"] as? String)
        #expect(html.hasPrefix("<li class=\"message\" id=\"message-"))
        #expect(html.contains("7am") && html.contains("at gate 2") && !html.contains("<b>") && !html.contains("<script"))
        #expect(html.contains(">Mina</a>") && html.contains("?reply=") && !html.contains("/edit\""))
        // Ara is told one message waits; Jun, who saw it arrive, has read it
        let count = ara.read { $0.contains { $0.name == "talk" && $0.json["count"] as? Int == 1 } }
        #expect(count.contains { $0.name == "talk" && $0.json["count"] as? Int == 1 })
        let junsID = try #require(try crew.site.database.accounts.user(username: "jun")?.id)
        #expect(try crew.site.database.talk.unreadCount(userID: junsID) == 0)
        #expect(!ara.idle(1).contains { $0.name == "message" })
    }

    @Test func editsAndDeletionsReplaceTheMessageLive() throws {
        let crew = try Crew()
        crew.people[0].post(crew.room, [("body", "Meet at 7")], from: crew.room)
        let messageID = try #require(try crew.site.database.talk.messages(roomID: crew.roomID).last?.message.id)
        let jun = try crew.open(crew.people[1], query: "?room=\(crew.roomID)")
        let mina = try crew.open(crew.people[0], query: "?room=\(crew.roomID)")
        jun.read { $0.contains { $0.name == "talk" } }
        mina.read { $0.contains { $0.name == "talk" } }

        let edit = Paths.talkMessage(messageID) + "/edit"
        #expect(crew.people[0].post(edit, [("body", "Meet at **8**")], from: edit).status == .seeOther)
        let edited = try #require(jun.read { $0.contains { $0.name == "edit" } }.first { $0.name == "edit" })
        #expect(edited.json["id"] as? Int == Int(messageID))
        let html = try #require(edited.json["html"] as? String)
        #expect(html.contains("<strong>8</strong>") && html.contains("edited") && !html.contains("/delete"))
        // Mina's own copy offers her edit and delete
        let minas = try #require(mina.read { $0.contains { $0.name == "edit" } }.first { $0.name == "edit" }?.json["html"] as? String)
        #expect(minas.contains("/edit\"") && minas.contains("/delete\""))

        #expect(crew.people[0].post(Paths.talkMessage(messageID) + "/delete", [], from: crew.room).status == .seeOther)
        let deleted = try #require(jun.read { $0.filter { $0.name == "edit" }.count == 2 }.last { $0.name == "edit" }?.json["html"] as? String)
        #expect(deleted.contains("class=\"message deleted\"") && !deleted.contains("Meet at"))
        #expect(!jun.idle(1).contains { $0.name == "message" })
    }

    @Test func aRoomsStreamIsOnlyForItsMembers() throws {
        let crew = try Crew()
        let outsider = try crew.open(crew.people[3], query: "?room=\(crew.roomID)")
        _ = outsider.idle(1)
        #expect(outsider.head.hasPrefix("HTTP/1.1 404"))
        let garbage = try crew.open(crew.people[1], query: "?room=1e400")
        _ = garbage.idle(1)
        #expect(garbage.head.hasPrefix("HTTP/1.1 404"))
    }

    @Test func aBlockedMembersMessagesNeverArriveLive() throws {
        let crew = try Crew()
        crew.people[2].post("/u/mina/block", [], from: "/u/mina")
        let ara = try crew.open(crew.people[2], query: "?room=\(crew.roomID)")
        let jun = try crew.open(crew.people[1], query: "?room=\(crew.roomID)")
        ara.read { $0.contains { $0.name == "talk" } }
        jun.read { $0.contains { $0.name == "talk" } }
        crew.people[0].post(crew.room, [("body", "From Mina")], from: crew.room)
        #expect(jun.read { $0.contains { $0.name == "message" } }.contains { ($0.json["html"] as? String)?.contains("<p>From Mina</p>") == true })
        #expect(!ara.idle(1).contains { $0.name == "message" })
    }
}
