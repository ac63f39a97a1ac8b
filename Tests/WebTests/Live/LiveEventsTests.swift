import Foundation
import HTTP
import Testing
import TestSupport
@testable import Web

/// `GET /events` over a real socket while members use the site: what arrives, for whom, and
/// what stops arriving when it may no longer be seen.
@Suite(.serialized) struct LiveEventsTests {
    /// The site on loopback, a meetup hosted by "hostess" with "mina" going and "jun" waitlisted.
    final class Meetup {
        let site: TestSite
        let server: HTTPServer
        let hostess: Browser, mina: Browser, jun: Browser
        let url: String
        let id: Int64

        init() throws {
            site = try TestSite()
            server = HTTPServer(configuration: LiveSite.serverConfiguration(), handler: site.app)
            try server.start()
            let people = site.members("hostess", "mina", "jun")
            (hostess, mina, jun) = (people[0], people[1], people[2])
            let start = Date().addingTimeInterval(3 * 86_400)
            let fields = [
                "title": "Dawn 10K", "description": "Easy.", "starts_at": LocalDateTime.text(start, .current), "duration": "60",
                "place_name": "Yeouido Park", "address": "Seoul, Yeouido", "latitude": "37.5283", "longitude": "126.9327",
                "place_note": "Gate 2", "region": "seoul", "time_slot": "afterWork", "distance": "10", "pace": "average", "style": "run", "capacity": "1",
                "signup_mode": "firstCome", "deadline": "", "gender_rule": "any",
            ]
            url = try #require(hostess.post("/meetups", fields.map { ($0.key, $0.value) }, from: "/meetups/new").headers["Location"])
            id = try #require(Int64(url.split(separator: "/").last ?? ""))
            mina.post(url + "/apply", [], from: url)
            jun.post(url + "/apply", [], from: url)  // the one place is taken: the waitlist
        }

        deinit { server.stop() }

        /// Opens `/events` for `browser` (its cookies) and reads until the stream's head.
        func open(_ browser: Browser?, query: String = "", lastEventID: String? = nil) throws -> Stream {
            let client = try LoopbackClient(port: server.port, readTimeout: 2)
            let cookie = browser.map { "Cookie: " + $0.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") + "\r\n" } ?? ""
            let resume = lastEventID.map { "Last-Event-ID: \($0)\r\n" } ?? ""
            client.send("GET /events\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\(cookie)\(resume)\r\n")
            return Stream(client: client)
        }
    }

    /// One open stream and what it has received so far.
    final class Stream {
        let client: LoopbackClient
        private(set) var received = ""

        init(client: LoopbackClient) {
            self.client = client
        }

        /// Reads until `done` holds for everything received (or two seconds pass without a byte).
        @discardableResult
        func read(until done: @escaping ([Event]) -> Bool) -> [Event] {
            if !done(events) {
                received += client.read { [received] more in done(Stream.events(in: received + more)) }
            }
            return events
        }

        /// Reads for `seconds`, whatever comes.
        @discardableResult
        func idle(_ seconds: Int) -> [Event] {
            let until = Date().addingTimeInterval(Double(seconds))
            received += client.read { _ in Date() > until }
            return events
        }

        var events: [Event] { Self.events(in: received) }
        var head: String { received.components(separatedBy: "\r\n\r\n").first ?? "" }

        static func events(in text: String) -> [Event] {
            guard let body = text.range(of: "\r\n\r\n").map({ text[$0.upperBound...] }) else { return [] }
            return body.components(separatedBy: "\n\n").compactMap { block in
                var event = Event()
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
                    if line.hasPrefix("event: ") { event.name = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { event.data = String(line.dropFirst(6)) }
                }
                return event.name.isEmpty ? nil : event
            }
        }
    }

    struct Event {
        var id = "", name = "", data = ""
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:] }
    }

    @Test func aTalkMessageReachesThoseGoingAtOnceAsTextAndNobodyElse() throws {
        let meetup = try Meetup()
        let mina = try meetup.open(meetup.mina, query: "?meetup=\(meetup.id)")
        let jun = try meetup.open(meetup.jun, query: "?meetup=\(meetup.id)")
        // Both first get the meetup's state; only then does the host write.
        #expect(mina.read { $0.contains { $0.name == "meetup" } }.contains { $0.name == "meetup" })
        #expect(mina.head.hasPrefix("HTTP/1.1 200") && mina.head.contains("Content-Type: text/event-stream"))
        #expect(!mina.head.contains("Content-Length"))
        jun.read { $0.contains { $0.name == "meetup" } }

        let hostile = "<script>alert('x')</script>\nI'm at gate 2, \"blue\" cap"
        let sentAt = Date()
        #expect(meetup.hostess.post(meetup.url + "/comments", [("body", hostile)], from: meetup.url).status == .seeOther)
        let message = try #require(mina.read { $0.contains { $0.name == "message" } }.first { $0.name == "message" })
        #expect(Date().timeIntervalSince(sentAt) < 1)
        #expect(message.json["text"] as? String == hostile)
        #expect(message.json["url"] as? String == "/u/hostess")
        #expect(message.id == String(message.json["id"] as? Int ?? -1))
        // Jun waits for a place: the talk is not his to read.
        #expect(!jun.idle(1).contains { $0.name == "message" })
    }

    @Test func aBrowserBackFromADropGetsExactlyWhatItMissedFromTheDatabase() throws {
        let meetup = try Meetup()
        for text in ["one", "two", "three"] {
            meetup.hostess.post(meetup.url + "/comments", [("body", text)], from: meetup.url)
        }
        let first = try meetup.open(meetup.mina, query: "?meetup=\(meetup.id)&after=0")
        let all = first.read { $0.filter { $0.name == "message" }.count == 3 }.filter { $0.name == "message" }
        #expect(all.map { $0.json["text"] as? String } == ["one", "two", "three"])
        // Back with the id of "one": "two" and "three", nothing else (the page's `after` loses).
        let back = try meetup.open(meetup.mina, query: "?meetup=\(meetup.id)&after=0", lastEventID: all[0].id)
        let missed = back.read { $0.filter { $0.name == "message" }.count == 2 }.filter { $0.name == "message" }
        #expect(missed.map { $0.json["text"] as? String } == ["two", "three"])
        #expect(!back.idle(1).dropFirst(missed.count).contains { $0.name == "message" && $0.json["text"] as? String == "one" })
        // A made-up id past the newest gives nothing old and nothing twice.
        let future = try meetup.open(meetup.mina, query: "?meetup=\(meetup.id)", lastEventID: "99999999999")
        #expect(!future.idle(1).contains { $0.name == "message" })
    }

    @Test func leavingTheMeetupStopsTheTalkAndSigningOutEndsTheStream() throws {
        let meetup = try Meetup()
        let mina = try meetup.open(meetup.mina, query: "?meetup=\(meetup.id)")
        mina.read { $0.contains { $0.name == "meetup" } }
        // Mina gives up her place: Jun gets it from the waitlist, and her page says it changed.
        #expect(meetup.mina.post(meetup.url + "/cancel", [], from: meetup.url).status == .seeOther)
        #expect(mina.read { $0.filter { $0.name == "meetup" }.count == 2 }.filter { $0.name == "meetup" }.count == 2)
        meetup.hostess.post(meetup.url + "/comments", [("body", "for those going")], from: meetup.url)
        #expect(!mina.idle(1).contains { $0.name == "message" })

        // Jun, now going, hears it; signing out ends his stream at once.
        let jun = try meetup.open(meetup.jun, query: "?meetup=\(meetup.id)&after=0")
        #expect(jun.read { $0.contains { $0.name == "message" } }.contains { $0.json["text"] as? String == "for those going" })
        let cookies = meetup.jun.cookies
        meetup.jun.logOut()
        let ended = Date()
        _ = jun.idle(3)
        var probe = [UInt8](repeating: 0, count: 1)
        #expect(read(jun.client.fd, &probe, 1) == 0, "the server closed the stream")
        #expect(Date().timeIntervalSince(ended) < 3.5)
        // The old cookie opens nothing any more.
        let stale = Browser(app: meetup.site.app, language: nil, address: "127.0.0.1")
        stale.cookies = cookies
        let refused = try meetup.open(stale)
        refused.idle(1)
        #expect(refused.head.hasPrefix("HTTP/1.1 401"))
    }

    @Test func theBellCountsANewNotificationOnAnyPage() throws {
        let meetup = try Meetup()
        let mina = try meetup.open(meetup.mina)
        let first = try #require(mina.read { $0.contains { $0.name == "bell" } }.first { $0.name == "bell" })
        meetup.jun.post("/u/mina/follow", [], from: "/u/mina")
        let bells = mina.read { $0.filter { $0.name == "bell" }.count == 2 }.filter { $0.name == "bell" }
        #expect(bells.count == 2)
        #expect((bells.last?.json["count"] as? Int ?? 0) == (first.json["count"] as? Int ?? 0) + 1)
        #expect((bells.last?.json["label"] as? String)?.hasPrefix("Notifications (") == true)
    }

    @Test func noSessionIs401AndOneMemberHoldsAtMostEightStreams() throws {
        let meetup = try Meetup()
        let anonymous = try meetup.open(nil)
        anonymous.idle(1)
        #expect(anonymous.head.hasPrefix("HTTP/1.1 401"))
        let unknown = try meetup.open(meetup.mina, query: "?meetup=999999")
        unknown.idle(1)
        #expect(unknown.head.hasPrefix("HTTP/1.1 404"))
        let open = try (0..<LiveStreams.perMember).map { _ in try meetup.open(meetup.mina) }
        for stream in open { stream.read { $0.contains { $0.name == "bell" } } }
        let oneTooMany = try meetup.open(meetup.mina)
        oneTooMany.idle(1)
        #expect(oneTooMany.head.hasPrefix("HTTP/1.1 429"))
        // Someone else is not held back by Mina's tabs.
        let jun = try meetup.open(meetup.jun)
        #expect(jun.read { $0.contains { $0.name == "bell" } }.contains { $0.name == "bell" })
    }
}
