import Formats
import Foundation
import Testing
import HTTP
import Storage
@testable import Web

/// A GPX file of `steps` points going north along a meridian, 0.001° apart, climbing 2 m and
/// taking 30 s per step, like a watch would write it.
func gpxFixture(steps: Int, start: Date = Date(timeIntervalSince1970: 1_795_000_000)) -> [UInt8] {
    let iso = ISO8601DateFormatter()
    let points = (0...steps).map { index in
        """
              <trkpt lat="\(37.5 + Double(index) * 0.001)" lon="126.93"><ele>\(10 + index * 2)</ele><time>\(iso.string(from: start.addingTimeInterval(Double(index) * 30)))</time></trkpt>
        """
    }.joined(separator: "\n")
    return Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="Moim tests" xmlns="http://www.topografix.com/GPX/1/1">
          <trk><name>Morning run</name><trkseg>
        \(points)
          </trkseg></trk>
        </gpx>
        """.utf8)
}

@Suite struct GPXTests {
    @Test func readsDistanceTimeAndClimbWithinHalfAPercent() throws {
        let track = try GPXTrack(Data(gpxFixture(steps: 90)))
        // 110.99 m every 30 s (0.001° of latitude at 37.5° on the WGS 84 ellipsoid): a
        // kilometre is reached after 270.3 s.
        #expect(track.splits().prefix(3) == [270, 541, 811])
        #expect(GPXTrack(points: track.points.map { var point = $0; point.time = nil; return point }).splits().isEmpty)
        // Stored splits are outside data: anything but a rising list of numbers shows nothing.
        #expect(SplitView.list("270,540").map(\.pace) == ["4:30", "4:30"])
        for stored in ["270,x", "540,270", "270,,540", "1e9", "-5", "", "270,540,99999999999999999999"] { #expect(SplitView.list(stored).isEmpty) }
        // Reference: 0.001° of latitude on a sphere of the same radius is 2πR/360000.
        let reference = 90 * 2 * Double.pi * 6_371_008.8 / 360_000
        #expect(abs(track.distance - reference) / reference < 0.005)
        #expect(track.duration == 2700.0)
        #expect(track.elevationGain == 180)
    }

    @Test func refusesHostileOrBrokenXML() {
        let laughs = """
            <?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <gpx><trk><trkseg><trkpt lat="1" lon="1"><name>&lol2;</name></trkpt></trkseg></trk></gpx>
            """
        #expect(throws: GPXTrack.Problem.unsafe) { try GPXTrack(Data(laughs.utf8)) }
        #expect(throws: GPXTrack.Problem.self) { try GPXTrack(Data("<gpx><trk>".utf8)) }
        #expect(throws: GPXTrack.Problem.notGPX) { try GPXTrack(Data("<kml><Placemark/></kml>".utf8)) }
        #expect(throws: GPXTrack.Problem.tooLarge) { try GPXTrack(Data(count: GPXTrack.maximumBytes + 1)) }
    }

    /// Points as a phone might record them: `(north, east)` in steps of 0.0001° (about 11 m)
    /// from Yeouido, one every `seconds`, in the segments given.
    private func track(_ segments: [[(north: Double, east: Double)]], seconds: Double = 4, start: Date = Date(timeIntervalSince1970: 1_795_000_000)) -> GPXTrack {
        var points: [GPXTrack.Point] = []
        for (segment, steps) in segments.enumerated() {
            for step in steps {
                points.append(GPXTrack.Point(latitude: 37.52 + step.north * 0.0001, longitude: 126.93 + step.east * 0.0001, elevation: nil,
                                             time: start.addingTimeInterval(Double(points.count) * seconds), segment: segment))
            }
        }
        return GPXTrack(points: points)
    }

    @Test func aGPSSpikeIsDroppedAndAJumpIsNotRun() throws {
        let straight = (0..<50).map { (north: Double($0), east: 0.0) }
        let plain = try track([straight]).checked()
        // A lone fix 2 km east (a teleport) between two good ones: dropped.
        var spiked = straight
        spiked.insert((north: 25, east: 200), at: 25)
        let withoutSpike = try track([spiked]).checked()
        #expect(withoutSpike.points.count == 50)
        #expect(abs(withoutSpike.distance - plain.distance) < 12)
        // The track goes on 2 km away (a ride on the subway between two runs): a new segment,
        // and the way between is neither distance nor time run.
        let moved = straight + (0..<50).map { (north: Double($0), east: 200.0) }
        let split = try track([moved]).checked()
        #expect(split.points.count == 100 && Set(split.points.map(\.segment)) == [0, 1])
        #expect(abs(split.distance - 2 * plain.distance) < 1)
        #expect(abs((split.duration ?? 0) - 2 * 49 * 4) < 0.01)
    }

    @Test func aPausedRunCountsOnlyItsMovingParts() throws {
        let first = (0..<30).map { (north: Double($0), east: 0.0) }, second = (0..<30).map { (north: 30 + Double($0), east: 5.0) }
        let paused = track([first, second])
        #expect(abs(paused.distance - track([first]).distance * 2) < 1)
        #expect(abs((paused.duration ?? 0) - 2 * 29 * 4) < 0.01)
        // Splits count moving time: the pause between the segments is not in them.
        let long = track([(0..<600).map { (north: Double($0), east: 0.0) }, (0..<600).map { (north: 600 + Double($0), east: 0.0) }])
        let splits = long.splits()
        #expect(splits.count == 13 && zip(splits, splits.dropFirst()).allSatisfy { $0.1 - $0.0 < 400 })
    }

    @Test func timesThatCannotBeAreRefused() {
        let now = Date(timeIntervalSince1970: 1_795_100_000)
        let steps = (0..<10).map { (north: Double($0), east: 0.0) }
        var backwards = track([steps])
        backwards.points.swapAt(3, 4)
        #expect(throws: GPXTrack.Problem.outOfOrder) { try backwards.checked(now: now) }
        #expect(throws: GPXTrack.Problem.future) { try track([steps], start: now.addingTimeInterval(3600)).checked(now: now) }
        #expect(throws: GPXTrack.Problem.tooLong) { try track([steps], seconds: 3 * 3600, start: now.addingTimeInterval(-40 * 3600)).checked(now: now) }
        #expect(throws: Never.self) { try track([steps], start: now.addingTimeInterval(-600)).checked(now: now) }
    }

    @Test func trimmingHidesTheEnds() throws {
        let track = try GPXTrack(Data(gpxFixture(steps: 20)))
        let trimmed = track.trimmed(200)
        #expect(trimmed.points.first?.latitude ?? 0 > track.points[1].latitude)
        #expect(trimmed.points.last?.latitude ?? 99 < track.points[19].latitude)
        #expect(GPXTrack(encoded: track.encoded).points.count == track.points.count)
    }
}

@Suite struct RecordTests {
    @Test func aGPXRunShowsItsRouteTrimmedToOthers() throws {
        let site = try TestSite()
        let people = site.members("runner", "friend")
        let saved = people[0].postMultipart("/records", [("visibility", "public"), ("note", "felt **great**")],
                                            files: [("gpx", "run.gpx", gpxFixture(steps: 60))], from: "/records/new")
        #expect(saved.status == .seeOther)
        let url = try #require(saved.headers["Location"])
        let mine = people[0].get(url).bodyText
        #expect(mine.contains("6.66 km"))
        #expect(mine.components(separatedBy: "<h1>").count == 2 && mine.contains(" run</h1>"))
        // Six whole kilometres at 110.99 m every 30 s: 4:30 or 4:31 each (270.3 s), with markers 1 to 6 on the route.
        #expect(mine.components(separatedBy: "<td class=\"num\">4:30</td>").count + mine.components(separatedBy: "<td class=\"num\">4:31</td>").count == 8)
        #expect(mine.contains("<g class=\"km-marker\">") && mine.contains(">6</text></g>") && !mine.contains(">7</text></g>"))
        #expect(mine.contains("<g class=\"scale-bar\">"))
        #expect(mine.contains("<polyline") && !mine.contains("the first and last 200 m are hidden"))
        let theirs = people[1].get(url).bodyText
        #expect(theirs.contains("the first and last 200 m are hidden"))
        #expect(theirs.contains("<strong>great</strong>"))
    }

    @Test func aRunnerChangesNotesAndVisibilityAfterTheRun() throws {
        let site = try TestSite()
        let people = site.members("runner", "friend")
        let start = MeetupForm.local(Date().addingTimeInterval(-3600), .current)
        let url = try #require(people[0].post("/records", [("started_at", start), ("distance", "5"), ("duration", "25:00"), ("visibility", "public")],
                                              from: "/records/new").headers["Location"])
        #expect(people[0].get(url).bodyText.contains("href=\"\(url)/edit\""))
        #expect(!people[1].get(url).bodyText.contains("\(url)/edit"))
        // Another member's edit is no page at all, nor is a forged one.
        #expect(people[1].get(url + "/edit").status == .notFound)
        #expect(people[1].post(url + "/edit", [("note", "mine now"), ("visibility", "public")], from: "/records").status == .notFound)
        let saved = people[0].post(url + "/edit", [("note", "**steady** <script>alert(1)</script>"), ("visibility", "private")], from: url + "/edit")
        #expect(saved.status == .seeOther)
        let page = people[0].get(url).bodyText
        #expect(page.contains("<strong>steady</strong>") && !page.contains("<script>alert(1)"))
        #expect(people[1].get(url).status == .notFound)
        #expect(people[0].post(url + "/edit", [("note", String(repeating: "a", count: 2001)), ("visibility", "public")], from: url + "/edit").status
            == .unprocessableContent)
        #expect(people[0].post(url + "/edit", [("note", ""), ("visibility", "everyone")], from: url + "/edit").status == .badRequest)
        #expect(people[1].get(url).status == .notFound)
    }

    @Test func visibilityIsHonoured() throws {
        let site = try TestSite()
        let people = site.members("runner", "friend")
        let start = MeetupForm.local(Date().addingTimeInterval(-3600), .current)
        let url = try #require(people[0].post("/records", [("started_at", start), ("distance", "5"), ("duration", "25:00"), ("visibility", "private")], from: "/records/new").headers["Location"])
        #expect(people[0].get(url).status == .ok)
        #expect(people[1].get(url).status == .notFound)
        #expect(site.browser().get(url).status == .notFound)
        #expect(people[0].get(url).bodyText.contains("5:00 /km"))
    }

    @Test func theCalendarTotalsTheMonth() throws {
        let site = try TestSite()
        let runner = site.members("runner")[0]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let monthStart = calendar.date(from: calendar.dateComponents([.year, .month], from: Date()))!
        for (day, km) in [(0, "5"), (1, "10.5")] {
            let when = MeetupForm.local(monthStart.addingTimeInterval(Double(day) * 86_400 + 7 * 3600), .current)
            let saved = runner.post("/records", [("started_at", when), ("distance", km), ("duration", "30:00"), ("visibility", "crew")], from: "/records/new")
            #expect(saved.status == .seeOther, "\(saved.bodyText.suffix(3000))")
        }
        let page = runner.get("/records").bodyText
        #expect(page.contains("15.50 km"))
        #expect(page.contains(">2<"))
        #expect(runner.get("/records?month=2026-13").status == .badRequest)
    }
}
