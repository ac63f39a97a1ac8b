import Foundation
import HTTP
@testable import Storage
import Testing
@testable import Web

/// What a host does to their meetup beside editing it, and what those going keep: declining an
/// application, closing signups, saving a meetup, and the calendar of meetups one goes to.
@Suite struct MeetupHostingTests {
    private func fields(title: String, mode: String = "firstCome", capacity: Int = 5, startsAt: Date = Date().addingTimeInterval(3 * 86_400))
        -> [(String, String)]
    {
        [
            ("title", title), ("description", ""), ("starts_at", LocalDateTime.text(startsAt, .current)), ("duration", "60"),
            ("place_name", "Yeouido Park"), ("address", ""), ("latitude", ""), ("longitude", ""), ("place_note", ""), ("region", "seoul"),
            ("time_slot", "afterWork"), ("distance", "5"), ("pace", "average"), ("style", "run"), ("capacity", String(capacity)),
            ("signup_mode", mode), ("deadline", ""), ("gender_rule", "any"),
        ]
    }

    private func host(_ browser: Browser, title: String, mode: String = "firstCome", capacity: Int = 5) throws -> String {
        try #require(browser.post("/meetups", fields(title: title, mode: mode, capacity: capacity), from: "/meetups/new").headers["Location"])
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

    @Test func aHostCancelsWithAReasonAndEveryoneGoingOrWaitingIsTold() throws {
        // Given Mina is going and Jun waits for the host's answer
        let site = try TestSite()
        let people = site.members("hostess", "mina", "jun", "kim")
        let (hostess, mina, jun, kim) = (people[0], people[1], people[2], people[3])
        let url = try host(hostess, title: "Hill repeats", mode: "approval")
        mina.post(url + "/apply", [], from: url)
        hostess.post(url + "/applications/mina/accept", [], from: url)
        jun.post(url + "/apply", [], from: url)
        let before = hostess.get(url + ".ics").bodyText
        // Only the host may call it off, and the page says who will be told; nobody can delete it now
        #expect(mina.get(url).bodyText.contains("/call-off") == false)
        #expect(mina.get(url + "/call-off").status == .forbidden)
        #expect(mina.post(url + "/call-off", [("reason", "Mine now")], from: url).status == .forbidden)
        let page = hostess.get(url + "/call-off").bodyText
        #expect(page.contains("2 people going or waiting will be told") && !page.contains(url + "/delete"))
        // A reason is needed, and nothing changes without one
        let empty = hostess.post(url + "/call-off", [("reason", "  ")], from: url + "/call-off")
        #expect(empty.status == .unprocessableContent && empty.bodyText.contains("Say why"))
        let long = hostess.post(url + "/call-off", [("reason", String(repeating: "비", count: 501))], from: url + "/call-off")
        #expect(long.status == .unprocessableContent)
        #expect(mina.get(url).bodyText.contains("You are going!"))

        // When the host cancels it with a reason (hostile markup in it)
        let cancelled = hostess.post(url + "/call-off", [("reason", "Heavy rain warning <script>alert(1)</script>")], from: url + "/call-off")
        #expect(cancelled.status == .seeOther && cancelled.headers["Location"] == url)
        // Then both are told, the reason shown as text
        for person in [mina, jun] {
            let told = person.get("/notifications").bodyText
            #expect(told.contains("cancelled a meetup you signed up for: Heavy rain warning &lt;script&gt;"))
            #expect(!told.contains("<script>alert(1)"))
        }
        // The page stays, says so, and offers no step; nobody can apply and the host cannot edit it or cancel again
        let shown = kim.get(url).bodyText
        #expect(shown.contains("The host cancelled this meetup.") && shown.contains("Heavy rain warning &lt;script&gt;"))
        #expect(!shown.contains(url + "/apply") && !mina.get(url).bodyText.contains(url + "/cancel\""))
        #expect(kim.post(url + "/apply", [], from: url).status == .conflict)
        #expect(hostess.get(url + "/edit").status == .conflict)
        #expect(hostess.post(url + "/call-off", [("reason", "Again")], from: url).status == .conflict)
        // It leaves the list of meetups to join; calendars see it cancelled, as a newer version
        #expect(!kim.get("/meetups").bodyText.contains("Hill repeats"))
        let after = hostess.get(url + ".ics").bodyText
        #expect(before.contains("STATUS:CONFIRMED") && after.contains("STATUS:CANCELLED"))
        #expect(before.contains("SEQUENCE:0") && after.contains("SEQUENCE:1"))
    }

    @Test func aMeetupNobodyJoinedCanBeDeletedAndOneSomeoneJoinedCannot() throws {
        let site = try TestSite()
        let people = site.members("hostess", "mina")
        let (hostess, mina) = (people[0], people[1])
        let lonely = try host(hostess, title: "Solo trail")
        #expect(hostess.get(lonely + "/call-off").bodyText.contains(lonely + "/delete"))
        #expect(mina.post(lonely + "/delete", [], from: lonely).status == .forbidden)
        #expect(hostess.post(lonely + "/delete", [], from: lonely + "/call-off").headers["Location"] == "/meetups")
        #expect(hostess.get(lonely).status == .notFound)
        #expect(hostess.post(lonely + "/delete", [], from: lonely).status == .notFound)

        // Someone joined: it can only be cancelled, so they are told
        let joined = try host(hostess, title: "Group trail")
        mina.post(joined + "/apply", [], from: joined)
        #expect(hostess.post(joined + "/delete", [], from: joined).status == .conflict)
        #expect(mina.get(joined).bodyText.contains("You are going!"))
        // Once they withdrew, it may go
        mina.post(joined + "/cancel", [], from: joined)
        #expect(hostess.post(joined + "/delete", [], from: joined).status == .seeOther)
    }

    /// The part of "My meetups" under the heading `id`.
    private func section(_ id: String, of page: String) -> String {
        guard let start = page.range(of: "id=\"\(id)\"") else { return "" }
        let rest = page[start.lowerBound...]
        return String(rest[..<(rest.range(of: "</section>")?.lowerBound ?? rest.endIndex)])
    }

    @Test func myMeetupsSortsHostingGoingWaitingAndPastWithAttendance() throws {
        let site = try TestSite()
        let people = site.members("hostess", "mina", "jun")
        let (hostess, mina, jun) = (people[0], people[1], people[2])
        let going = try host(hostess, title: "Going run")
        let full = try host(hostess, title: "Full run", capacity: 1)
        let asked = try host(hostess, title: "Ask first", mode: "approval")
        let ended = try host(hostess, title: "Last week")
        mina.post(going + "/apply", [], from: going)
        jun.post(full + "/apply", [], from: full)
        mina.post(full + "/apply", [], from: full)
        mina.post(asked + "/apply", [], from: asked)
        mina.post(ended + "/apply", [], from: ended)
        // The last one happened a week ago, and Mina was there
        let endedID = try #require(Int64(ended.split(separator: "/").last ?? ""))
        let weekAgo = Date().addingTimeInterval(-7 * 86_400)
        try site.database.write { db in
            try db.execute("UPDATE meetups SET startsAt = ?, deadline = ? WHERE id = ?", [weekAgo, weekAgo, endedID])
            try db.execute("UPDATE meetupApplications SET attended = ? WHERE meetupID = ?", [true, endedID])
        }

        let page = mina.get("/meetups/mine")
        #expect(page.status == .ok)
        let text = page.bodyText
        #expect(section("going", of: text).contains("Going run") && !section("going", of: text).contains("Full run"))
        #expect(section("waitlisted", of: text).contains("Full run") && section("waitlisted", of: text).contains("Waitlist #1"))
        #expect(section("waiting", of: text).contains("Ask first"))
        #expect(section("past", of: text).contains("Last week") && section("past", of: text).contains("Went"))
        #expect(section("hosting", of: text).isEmpty)
        let hosting = hostess.get("/meetups/mine").bodyText
        #expect(["Going run", "Full run", "Ask first"].allSatisfy(section("hosting", of: hosting).contains))
        #expect(section("past", of: hosting).contains("Hosted"))
        // Jun, with nothing of his own but the full run, and a newcomer with nothing at all
        #expect(section("going", of: jun.get("/meetups/mine").bodyText).contains("Full run"))
        let newcomer = site.members("newcomer")[0]
        #expect(newcomer.get("/meetups/mine").bodyText.contains("No meetups yet"))
        // It is linked from the header, and it is a member's own page
        #expect(mina.get("/").bodyText.contains(#"href="/meetups/mine""#))
        #expect(site.browser().get("/meetups/mine").status == .seeOther)
    }

    @Test func thoseGoingAreRemindedTheDayBeforeAndAnHourBeforeOnceEach() throws {
        let site = try TestSite()
        let people = site.members("hostess", "mina", "jun", "kim")
        let (hostess, mina, jun, kim) = (people[0], people[1], people[2], people[3])
        let url = try host(hostess, title: "Hill repeats", capacity: 1)
        mina.post(url + "/apply", [], from: url)
        jun.post(url + "/apply", [], from: url)  // waitlisted: not going
        let id = try #require(Int64(url.split(separator: "/").last ?? ""))
        let startsAt = try #require(try site.database.meetups.meetup(id: id)).startsAt
        let reminders = { (browser: Browser) in browser.get("/notifications").bodyText.components(separatedBy: "Hill repeats, ").count - 1 }

        // Three days ahead, nothing is due
        try site.app.sweep(now: startsAt.addingTimeInterval(-3 * 86_400 + 60))
        #expect(reminders(mina) == 0)
        // A day ahead, Mina is reminded once, naming the meetup, its time and place; Jun is not
        try site.app.sweep(now: startsAt.addingTimeInterval(-20 * 3_600))
        try site.app.sweep(now: startsAt.addingTimeInterval(-19 * 3_600))
        let day = mina.get("/notifications").bodyText
        #expect(day.contains("Coming up: Hill repeats, ") && day.contains(", at Yeouido Park"))
        #expect(reminders(mina) == 1 && reminders(jun) == 0 && reminders(hostess) == 0)
        // Within the hour, once more
        try site.app.sweep(now: startsAt.addingTimeInterval(-30 * 60))
        try site.app.sweep(now: startsAt.addingTimeInterval(-20 * 60))
        #expect(mina.get("/notifications").bodyText.contains("Starting within the hour: Hill repeats, "))
        #expect(reminders(mina) == 2)

        // A meetup moved is reminded again for its new time; one called off reminds nobody
        let moved = try host(hostess, title: "Track night")
        kim.post(moved + "/apply", [], from: moved)
        let movedID = try #require(Int64(moved.split(separator: "/").last ?? ""))
        let first = try #require(try site.database.meetups.meetup(id: movedID)).startsAt
        try site.app.sweep(now: first.addingTimeInterval(-20 * 3_600))
        let later = fields(title: "Track night", startsAt: first.addingTimeInterval(2 * 86_400))
        #expect(hostess.post(moved + "/edit", later, from: moved + "/edit").status == .seeOther)
        #expect(kim.post(moved + "/confirm", [], from: moved).status == .seeOther, "she keeps her place after the move")
        let second = try #require(try site.database.meetups.meetup(id: movedID)).startsAt
        try site.app.sweep(now: second.addingTimeInterval(-20 * 3_600))
        #expect(kim.get("/notifications").bodyText.components(separatedBy: "Coming up: Track night").count - 1 == 2)
        let called = try host(hostess, title: "Rained out")
        kim.post(called + "/apply", [], from: called)
        hostess.post(called + "/call-off", [("reason", "Storm")], from: called + "/call-off")
        let calledID = try #require(Int64(called.split(separator: "/").last ?? ""))
        try site.app.sweep(now: try #require(try site.database.meetups.meetup(id: calledID)).startsAt.addingTimeInterval(-30 * 60))
        #expect(!kim.get("/notifications").bodyText.contains("Rained out, "))
    }

    @Test func aBasketballCrewsMeetupIsAGameWithoutAPaceAndTheListFiltersBySport() throws {
        let site = try TestSite()
        let people = site.members("coach", "mina")
        let (coach, mina) = (people[0], people[1])
        let crew = try #require(coach.postMultipart("/crews", [
            ("name", "Hoops Friday"), ("sport", "basketball"), ("fee_amount", "0"), ("fee_currency", "KRW"), ("fee_period", "month"), ("join_policy", "open"),
        ], files: [], from: "/crews/new").headers["Location"])
        // The crew's sport is the form's to begin with
        let form = coach.get("/meetups/new?crew=hoops-friday").bodyText
        #expect(form.contains(#"<option value="basketball" selected>"#) && form.contains(#"name="game_format""#))
        let game = try #require(coach.post("/meetups", fields(title: "Friday run-in").filter { !["pace", "style", "distance"].contains($0.0) }
                                           + [("sport", "basketball"), ("level", "intermediate"), ("game_format", "fiveOnFive"), ("crew", "hoops-friday")],
                                           from: "/meetups/new").headers["Location"])
        _ = try host(coach, title: "Dawn 10K")
        let page = mina.get(game).bodyText
        #expect(page.contains(#"<span class="chip">Basketball</span>"#) && page.contains(#"<span class="chip">5 on 5</span>"#)
                && page.contains(#"<span class="chip">Intermediate</span>"#))
        #expect(!page.contains(#"<span class="chip">Average</span>"#) && !page.contains(#"<span class="chip">Run</span>"#), "no pace, no style")
        // The list filters by sport, and a pace filter finds runs only
        let games = mina.get("/meetups?sport=basketball").bodyText
        #expect(games.contains("Friday run-in") && !games.contains("Dawn 10K"))
        let paced = mina.get("/meetups?pace=average").bodyText
        #expect(paced.contains("Dawn 10K") && !paced.contains("Friday run-in"))
        #expect(mina.get("/meetups?sport=%3Cscript%3E").status == .ok)
        #expect(mina.get(crew).status == .ok)
    }

    @Test func theHostSeesEachApplicantsRecordBesideAcceptAndDecline() throws {
        let site = try TestSite()
        let people = site.members("hostess", "mina", "jun")
        let (hostess, mina, jun) = (people[0], people[1], people[2])
        // Mina went to two meetups, missed one, and went to one long ago
        var past: [(Int64, Bool, Double)] = []
        for (title, went, daysAgo) in [("One", true, 10.0), ("Two", true, 20.0), ("Three", false, 30.0), ("Old", true, 400.0)] {
            let url = try host(hostess, title: title)
            mina.post(url + "/apply", [], from: url)
            past.append((try #require(Int64(url.split(separator: "/").last ?? "")), went, daysAgo))
        }
        try site.database.write { db in
            for (id, went, daysAgo) in past {
                let then = Date().addingTimeInterval(-daysAgo * 86_400)
                try db.execute("UPDATE meetups SET startsAt = ?, deadline = ? WHERE id = ?", [then, then, id])
                try db.execute("UPDATE meetupApplications SET attended = ? WHERE meetupID = ?", [went, id])
            }
        }
        let url = try host(hostess, title: "Hill repeats", mode: "approval")
        mina.post(url + "/apply", [], from: url)
        jun.post(url + "/apply", [], from: url)
        let page = hostess.get(url).bodyText
        #expect(page.contains("Last 6 months: went 2 · no-show 1"))
        #expect(page.contains("No meetups recorded in the last 6 months"))
        // Only the host sees applications and records
        #expect(!mina.get(url).bodyText.contains("Last 6 months"))
    }

    @Test func aHostCopiesAMeetupToTheSameTimeAWeekOn() throws {
        let site = try TestSite()
        let people = site.members("hostess", "mina")
        let (hostess, mina) = (people[0], people[1])
        let url = try host(hostess, title: "Thursday track", mode: "approval", capacity: 7)
        let id = try #require(Int64(url.split(separator: "/").last ?? ""))
        let original = try #require(try site.database.meetups.meetup(id: id))
        #expect(hostess.get(url).bodyText.contains("/meetups/new?copy=\(id)"))
        let form = hostess.get("/meetups/new?copy=\(id)").bodyText
        #expect(form.contains(#"value="Thursday track""#) && form.contains(#"name="capacity" type="number" min="1" max="1000" value="7""#))
        #expect(form.contains(#"<option value="approval" selected>"#))
        #expect(form.contains(#"value="\#(LocalDateTime.text(original.startsAt.addingTimeInterval(7 * 86_400), .current))""#), "a week on")
        // Another member's copy is a blank form, and nonsense ids are too
        #expect(!mina.get("/meetups/new?copy=\(id)").bodyText.contains("Thursday track"))
        for bad in ["1e400", "-1", "abc", "99999999999999999999"] { #expect(hostess.get("/meetups/new?copy=" + bad).status == .ok) }
        #expect(!mina.get(url).bodyText.contains("/meetups/new?copy="))
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
