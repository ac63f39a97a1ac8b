import Foundation
import HTTP
import Storage
import Testing
@testable import Web

@Suite struct CrewNoticesTests {
    /// A crew of the first browser, joined by the others; its path.
    private func crew(_ people: [Browser]) throws -> String {
        let url = try #require(people[0].startCrew("Dawn Runners"))
        for member in people.dropFirst() { member.post(url + "/join", [], from: url) }
        return url
    }

    @Test func aNoticeIsPinnedToldToMembersAndStaffSeeWhoHasReadIt() throws {
        let site = try TestSite()
        let people = site.people("lead", "mina", "jun")
        let url = try crew(people)
        // Only staff post one
        #expect(people[1].post(url + "/notices", [("body", "Not staff")], from: url).status == .forbidden)
        #expect(people[0].post(url + "/notices", [("body", "Saturday's run starts at **6:30**.")], from: url).status == .seeOther)
        // Each member is told
        #expect(people[1].get("/notifications").bodyText.contains("<strong>Lead</strong> posted a notice in Dawn Runners"))
        // Mina opens the crew page: pinned at the top, and counted as read
        #expect(people[1].get(url).bodyText.contains("<strong>6:30</strong>"))
        let staffView = people[0].get(url).bodyText
        #expect(staffView.contains("Read by 2 of 3"))
        let readers = try #require(staffView.firstMatch(of: /href="(\/crews\/dawn-runners\/notices\/\d+)"/)?.1)
        let list = people[0].get(String(readers)).bodyText
        #expect(list.contains("Not read yet") && list.contains("Jun"))
        // A member who is not staff cannot see the list, nor anyone outside
        #expect(people[1].get(String(readers)).status == .notFound)
        #expect(!people[1].get(url).bodyText.contains("Read by"))
        // The crew's room shows it too, and reading it there counts
        let crewID = try #require(try site.database.crews.crew(slug: "dawn-runners")?.id)
        let room = Paths.talkRoom(try #require(try site.database.talk.crewRoom(crewID: crewID)).storedID)
        #expect(people[2].get(room).bodyText.contains("<strong>6:30</strong>"))
        #expect(people[0].get(url).bodyText.contains("Read by 3 of 3"))
        #expect(people[0].get(String(readers)).bodyText.contains("Everyone has read it."))
        // Unpinned, it leaves the page
        #expect(people[0].post(String(readers) + "/unpin", [], from: url).status == .seeOther)
        #expect(!people[1].get(url).bodyText.contains("6:30"))
    }

    @Test func aCrewsNewMeetupIsNewsAndAMemberSilencesTheCrew() throws {
        let site = try TestSite()
        let people = site.people("lead", "mina", "jun", "outsider")
        let url = try crew(Array(people.prefix(3)))
        let start = Date().addingTimeInterval(3 * 86_400)
        func schedule(_ title: String) {
            people[1].post("/meetups", [
                ("title", title), ("starts_at", LocalDateTime.text(start, .current)), ("duration", "60"), ("place_name", "Yeouido Park"),
                ("time_slot", "afterWork"), ("pace", "average"), ("style", "run"), ("capacity", "8"), ("signup_mode", "firstCome"),
                ("gender_rule", "any"), ("crew", "dawn-runners"),
            ], from: "/meetups/new")
        }
        // Mina schedules a crew meetup: Lead and Jun are told, by name and title, linked to it
        schedule("Saturday long run")
        let told = people[2].get("/notifications").bodyText
        #expect(told.contains("<strong>Mina</strong> scheduled a meetup in Dawn Runners: Saturday long run"))
        #expect(told.contains("href=\"/meetups/"))
        #expect(!people[1].get("/notifications").bodyText.contains("scheduled a meetup"))
        // Jun silences the crew: neither its meetups nor its notices reach him; Lead still hears
        #expect(people[2].get(url).bodyText.contains("Notices and new meetups notify you."))
        #expect(people[2].post(url + "/notifications", [("on", "0")], from: url).status == .seeOther)
        #expect(people[2].get(url).bodyText.contains("silenced"))
        schedule("Tuesday intervals")
        people[0].post(url + "/notices", [("body", "Dues are due")], from: url)
        let silenced = people[2].get("/notifications").bodyText
        #expect(!silenced.contains("Tuesday intervals") && !silenced.contains("posted a notice"))
        #expect(people[0].get("/notifications").bodyText.contains("Tuesday intervals"))
        // The notice is still pinned on the crew page for him
        #expect(people[2].get(url).bodyText.contains("Dues are due"))
        // On again; nonsense and strangers are refused
        #expect(people[2].post(url + "/notifications", [("on", "1")], from: url).status == .seeOther)
        #expect(try site.database.crews.notifies(crewID: try #require(try site.database.crews.crew(slug: "dawn-runners")?.id),
                                                 userID: try #require(try site.database.accounts.user(username: "jun")?.id)))
        #expect(people[2].post(url + "/notifications", [("on", "maybe")], from: url).status == .badRequest)
        #expect(people[3].post(url + "/notifications", [("on", "0")], from: url).status == .notFound)
    }

    @Test func aVisitorSeesNoNoticeAndBadNoticesAreRefused() throws {
        let site = try TestSite()
        let people = site.people("lead", "mina", "visitor")
        let url = try crew(Array(people.prefix(2)))
        people[0].post(url + "/notices", [("body", "Members only")], from: url)
        #expect(!people[2].get(url).bodyText.contains("Members only"))
        #expect(people[0].post(url + "/notices", [("body", "   ")], from: url).status == .unprocessableContent)
        #expect(people[0].post(url + "/notices", [("body", String(repeating: "가", count: 2_001))], from: url).status == .unprocessableContent)
        #expect(people[0].post(url + "/notices/99999/unpin", [], from: url).status == .notFound)
    }
}
