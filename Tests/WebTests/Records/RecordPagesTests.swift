import Foundation
import HTTP
import Testing
@testable import Web

/// A runner's records as others see them, and deleting one.
@Suite struct RecordPagesTests {
    private func log(_ browser: Browser, note: String, visibility: String) throws -> String {
        let started = LocalDateTime.text(Date().addingTimeInterval(-3_600), .current)
        return try #require(browser.postMultipart("/records", [
            ("distance", "10.5"), ("duration", "55:00"), ("elevation", ""), ("started_at", started), ("note", note),
            ("visibility", visibility), ("meetup", ""),
        ], files: [], from: "/records/new").headers["Location"])
    }

    @Test func aProfilesCalendarShowsOnlyTheRunsTheViewerMaySee() throws {
        let site = try TestSite()
        let people = site.members("mina", "jun")
        let open = try log(people[0], note: "Open run", visibility: "public")
        let secret = try log(people[0], note: "Secret run", visibility: "private")
        let page = people[1].get("/u/mina/records")
        #expect(page.status == .ok)
        #expect(page.bodyText.contains(open))
        #expect(!page.bodyText.contains(secret))
        #expect(people[0].get("/u/mina/records").bodyText.contains(secret))
        #expect(people[1].get("/u/nobody/records").status == .notFound)
    }

    @Test func onlyTheRunnerDeletesARecord() throws {
        let site = try TestSite()
        let people = site.members("mina", "jun")
        let url = try log(people[0], note: "Tempo", visibility: "public")
        #expect(people[1].post(url + "/delete", [], from: url).status == .notFound)
        #expect(people[1].get(url).status == .ok)
        #expect(people[0].post(url + "/delete", [], from: url).headers["Location"] == "/records")
        #expect(people[0].get(url).status == .notFound)
        #expect(people[0].post(url + "/delete", [], from: url).status == .notFound)
    }
}
