import Formats
import Foundation
import Testing
import HTTP
import Storage
import TestSupport
@testable import Web

@Suite struct RecordTests {
    @Test func storedSplitsThatAreNotARisingListShowNothing() {
        // Stored splits are outside data: anything but a rising list of numbers shows nothing.
        #expect(SplitView.list("270,540").map(\.pace) == ["4:30", "4:30"])
        for stored in ["270,x", "540,270", "270,,540", "1e9", "-5", "", "270,540,99999999999999999999"] { #expect(SplitView.list(stored).isEmpty) }
    }

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
        let start = LocalDateTime.text(Date().addingTimeInterval(-3600), .current)
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
        let start = LocalDateTime.text(Date().addingTimeInterval(-3600), .current)
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
            let when = LocalDateTime.text(monthStart.addingTimeInterval(Double(day) * 86_400 + 7 * 3600), .current)
            let saved = runner.post("/records", [("started_at", when), ("distance", km), ("duration", "30:00"), ("visibility", "crew")], from: "/records/new")
            #expect(saved.status == .seeOther, "\(saved.bodyText.suffix(3000))")
        }
        let page = runner.get("/records").bodyText
        #expect(page.contains("15.50 km"))
        #expect(page.contains(">2<"))
        #expect(runner.get("/records?month=2026-13").status == .badRequest)
    }
}
