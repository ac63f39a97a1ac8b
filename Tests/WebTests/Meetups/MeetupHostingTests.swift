import Foundation
import HTTP
import Testing
@testable import Web

/// What a host does to their meetup beside editing it, and what those going keep: declining an
/// application, closing signups, saving a meetup, and the calendar of meetups one goes to.
@Suite struct MeetupHostingTests {
    private func host(_ browser: Browser, title: String, mode: String = "firstCome") throws -> String {
        let start = LocalDateTime.text(Date().addingTimeInterval(3 * 86_400), .current)
        return try #require(browser.post("/meetups", [
            ("title", title), ("description", ""), ("starts_at", start), ("duration", "60"), ("place_name", "Yeouido Park"),
            ("address", ""), ("latitude", ""), ("longitude", ""), ("place_note", ""), ("region", "seoul"), ("time_slot", "afterWork"),
            ("distance", "5"), ("pace", "average"), ("style", "run"), ("capacity", "5"), ("signup_mode", mode), ("deadline", ""),
            ("gender_rule", "any"),
        ], from: "/meetups/new").headers["Location"])
    }

    @Test func aDeclinedApplicantIsToldAndOnlyTheHostMayDecline() throws {
        // Given Mina and Jun apply to a meetup the host approves
        let site = try TestSite()
        let people = site.members("hostess", "mina", "jun")
        let (hostess, mina, jun) = (people[0], people[1], people[2])
        let url = try host(hostess, title: "Hill repeats", mode: "approval")
        mina.post(url + "/apply", [], from: url)
        jun.post(url + "/apply", [], from: url)
        // Jun cannot decide for the host
        #expect(jun.post(url + "/applications/mina/reject", [], from: url).status == .forbidden)
        // When the host declines Mina
        #expect(hostess.post(url + "/applications/mina/reject", [], from: url).status == .seeOther)
        // Then she is told, and is not going
        #expect(mina.get("/notifications").bodyText.contains("declined your meetup application"))
        #expect(mina.get(url).bodyText.contains("The host declined your application."))
        #expect(hostess.post(url + "/applications/nobody/reject", [], from: url).status == .notFound)
    }

    @Test func aClosedMeetupTakesNoNewSignups() throws {
        let site = try TestSite()
        let people = site.members("hostess", "mina", "jun")
        let url = try host(people[0], title: "Track Tuesday")
        people[1].post(url + "/apply", [], from: url)
        // Someone else cannot close it; the host can
        #expect(people[1].post(url + "/close", [], from: url).status == .forbidden)
        #expect(people[0].post(url + "/close", [], from: url).status == .seeOther)
        // Then Jun cannot sign up, and Mina is still going
        let late = people[2].post(url + "/apply", [], from: url)
        #expect(late.status != .seeOther)
        #expect(!people[2].get(url).bodyText.contains("You are going!"))
        #expect(people[1].get(url).bodyText.contains("You are going!"))
    }

    @Test func aSavedMeetupIsListedUntilItIsUnsaved() throws {
        let site = try TestSite()
        let people = site.members("hostess", "mina")
        let url = try host(people[0], title: "Sunset ride")
        #expect(people[1].post(url + "/bookmark", [], from: url).headers["Location"] == url)
        #expect(people[1].get("/bookmarks").bodyText.contains("Sunset ride"))
        #expect(people[1].post(url + "/unbookmark", [], from: url).headers["Location"] == url)
        #expect(!people[1].get("/bookmarks").bodyText.contains("Sunset ride"))
        #expect(people[1].post("/meetups/99999999/bookmark", [], from: url).status == .notFound)
    }

    @Test func theCalendarAddressListsTheMeetupsOneGoesToWithoutASession() throws {
        // Given Mina goes to one meetup and not another
        let site = try TestSite()
        let people = site.members("hostess", "mina")
        let going = try host(people[0], title: "Dawn 10K")
        _ = try host(people[0], title: "Night 5K")
        people[1].post(going + "/apply", [], from: going)
        // When her calendar address, from the meetup list, is fetched by a calendar app (no cookies)
        let link = try #require(people[1].get("/meetups").bodyText.firstMatch(of: /href="(\/calendar\/[A-Za-z0-9_-]+\.ics)"/)?.1)
        let calendar = site.browser().get(String(link))
        // Then it holds the meetup she goes to, only
        #expect(calendar.status == .ok)
        #expect(calendar.headers["Content-Type"] == "text/calendar; charset=utf-8")
        #expect(calendar.bodyText.contains("SUMMARY:Dawn 10K"))
        #expect(!calendar.bodyText.contains("Night 5K"))
        // And a guessed address is 404
        #expect(site.browser().get("/calendar/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics").status == .notFound)
        #expect(site.browser().get("/calendar/short.ics").status == .notFound)
    }
}
