import Formats
import Foundation
import Synchronization
import Testing
import HTTP
import Storage
@testable import Web

/// A run as the browser's recorder sends it (`Public/js/recorder.js`): GPX through the record
/// form with the run's key, over a real socket. Sent again it is the same record; hostile
/// tracks get a clear refusal and leave nothing.
@Suite(.serialized) struct RecordedRunTests {
    /// GPX as the recorder writes it: `count` fixes `seconds` apart, 0.0001° (11 m) north each,
    /// `times` overriding the time of a fix and `moved` its place, in one segment.
    private func recorded(_ count: Int, seconds: Double = 4, start: Date = Date().addingTimeInterval(-3600),
                          times: [Int: Date] = [:], moved: [Int: (Double, Double)] = [:]) -> [UInt8] {
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let points = (0..<count).map { index in
            let (lat, lon) = moved[index] ?? (37.52 + Double(index) * 0.0001, 126.93)
            let time = times[index] ?? start.addingTimeInterval(Double(index) * seconds)
            return "<trkpt lat=\"\(lat)\" lon=\"\(lon)\"><ele>12.5</ele><time>\(iso.string(from: time))</time></trkpt>"
        }
        return Array(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"Moim\" xmlns=\"http://www.topografix.com/GPX/1/1\">"
            + "<trk><trkseg>" + points.joined(separator: "\n") + "</trkseg></trk></gpx>\n").utf8)
    }

    private func records(_ live: LiveSite) throws -> [RunRecord] {
        let id = try #require(try live.site.database.accounts.user(username: "hostile")).storedID
        return try live.site.database.records.records(userID: id, from: .distantPast, to: .distantFuture, viewerID: id)
    }

    @Test func aRunSentAgainIsTheSameRecord() throws {
        let live = try LiveSite()
        let key = "0f8e2a57-7c1d-4b6e-9a3f-3c2d1e0b9a87"
        let fields = [("visibility", "crew"), ("note", "Dawn run"), ("run", key)]
        let first = try live.post("/records", fields, file: ("gpx", "run.gpx", recorded(300)))
        #expect(first.statusCode == 303)
        // The answer was lost on the way, or the outbox sent it from two places at once.
        let again = try live.post("/records", fields, file: ("gpx", "run.gpx", recorded(300)))
        #expect(again.statusCode == 303 && again.header("Location") == first.header("Location"))
        let saved = try records(live)
        #expect(saved.count == 1 && saved.first?.clientKey == key)
        // 299 steps of 11.09 m (0.0001° at 37.52° on the ellipsoid), 4 s each.
        #expect(abs((saved.first?.distanceMeters ?? 0) - 3_317) <= 2)
        #expect(saved.first?.durationSeconds == 1196)
        // Another run is another record; a key that is not one the recorder makes is refused.
        #expect(try live.post("/records", [("visibility", "crew"), ("run", "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed")],
                              file: ("gpx", "run.gpx", recorded(50))).statusCode == 303)
        for key in ["short", String(repeating: "a", count: 65), "<script>alert(1)</script>-aaaaaaaaaa", "key with spaces in it"] {
            #expect(try live.post("/records", [("visibility", "crew"), ("run", key)], file: ("gpx", "run.gpx", recorded(50))).statusCode == 400)
        }
        #expect(try records(live).count == 2)
        #expect(live.isUp)
    }

    @Test func copiesSentAtOnceMakeOneRecord() throws {
        nonisolated(unsafe) let live = try LiveSite()
        let request = live.multipart("/records", [("visibility", "public"), ("run", "c4a760a8-dbcf-4e14-9c9e-1e2b3c4d5e6f")],
                                     file: ("gpx", "run.gpx", recorded(120)))
        let answers = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let answer = (try? live.send(request.head, body: request.body)) ?? ""
            answers.withLock { $0.append(answer) }
        }
        let all = answers.withLock { $0 }
        #expect(all.allSatisfy { $0.statusCode == 303 })
        #expect(Set(all.compactMap { $0.header("Location") }).count == 1)
        #expect(try records(live).count == 1)
    }

    @Test func hostileTracksAreRefusedAndLeaveNothing() throws {
        let live = try LiveSite()
        let start = Date().addingTimeInterval(-3600)
        let refusals: [(String, [UInt8], String)] = [
            ("out of order", recorded(100, start: start, times: [50: start]), "out of order"),
            ("in the future", recorded(100, start: Date().addingTimeInterval(3600)), "in the future"),
            ("40 hours", recorded(100, seconds: 40 * 3600 / 99, start: Date().addingTimeInterval(-41 * 3600)), "more than 24 hours"),
        ]
        for (what, gpx, message) in refusals {
            let answer = try live.post("/records", [("visibility", "crew"), ("run", "aaaaaaaaaaaaaaaaaaaaaaaa")], file: ("gpx", "run.gpx", gpx))
            #expect(answer.statusCode == 422, "\(what)")
            #expect(answer.contains(message), "\(what)")
        }
        // 500,000 points: far past the file's 5 MB, refused before any is read.
        let huge = recorded(500_000)
        #expect(huge.count > GPXTrack.maximumBytes)
        let tooBig = try live.post("/records", [("visibility", "crew")], file: ("gpx", "run.gpx", huge))
        #expect([413, 422].contains(tooBig.statusCode ?? 0))
        #expect(try records(live).isEmpty)

        // A teleport of 2 km for one fix is GPS noise: the run is saved without it.
        let teleport = try live.post("/records", [("visibility", "crew")], file: ("gpx", "run.gpx", recorded(100, moved: [50: (37.54, 126.93)])))
        #expect(teleport.statusCode == 303)
        #expect(abs((try records(live).first?.distanceMeters ?? 0) - 1_098) <= 2)
        #expect(live.isUp)
    }

    @Test func theMeetupsPageOffersTheRecorderOnItsDayToThoseGoing() throws {
        let site = try TestSite()
        let people = site.members("host", "visitor")
        // A meetup starting in two minutes (a run within ten minutes of midnight has no such day).
        let now = Date()
        guard Calendar.current.isDate(now.addingTimeInterval(600), inSameDayAs: now) else { return }
        let soon = LocalDateTime.text(now.addingTimeInterval(120), .current)
        let fields = [
            ("title", "Lunch 5K"), ("description", "Easy."), ("starts_at", soon), ("duration", "45"), ("place_name", "Yeouido Park"),
            ("address", "Seoul"), ("latitude", ""), ("longitude", ""), ("place_note", ""), ("region", "seoul"), ("time_slot", "afterWork"),
            ("distance", "5"), ("pace", "average"), ("style", "run"), ("capacity", "5"), ("signup_mode", "firstCome"), ("deadline", ""),
            ("gender_rule", "any"),
        ]
        let url = try #require(people[0].post("/meetups", fields, from: "/meetups/new").headers["Location"])
        let id = try #require(url.split(separator: "/").last.flatMap { Int64($0) })
        let hostPage = people[0].get(url).bodyText
        #expect(hostPage.contains("href=\"/records/new?meetup=\(id)#recorder\"") && hostPage.contains("data-needs-geolocation hidden"))
        #expect(!people[1].get(url).bodyText.contains("/records/new?meetup="))
        // The form it opens has the meetup chosen, and the recorder hidden until a script shows it.
        let form = people[0].get("/records/new?meetup=\(id)").bodyText
        #expect(form.contains("<option value=\"\(id)\" selected>"))
        #expect(form.contains("id=\"recorder\" hidden"))
        #expect(site.app.recordURL(meetupID: id, startsAt: Date().addingTimeInterval(-3 * 86_400), now: Date()) == nil)
    }
}
