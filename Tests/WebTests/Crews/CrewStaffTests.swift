import Foundation
import HTTP
import Testing
@testable import Web

/// A crew's tabs, its wall of comments, and what its staff do to members, invite codes and dues.
@Suite struct CrewStaffTests {
    private func crew(_ owner: Browser, name: String, policy: String = "open", fee: String = "0") throws -> String {
        try #require(owner.postMultipart("/crews", [
            ("name", name), ("slug", ""), ("sport", "running"), ("region", "seoul"), ("description", ""), ("meeting_time", ""),
            ("meeting_place", ""), ("fee_amount", fee), ("fee_currency", "KRW"), ("fee_period", "month"), ("join_policy", policy),
            ("member_cap", ""),
        ], files: [], from: "/crews/new").headers["Location"])
    }

    @Test func theMeetupsAndRetrosTabsListTheCrewsOwn() throws {
        let site = try TestSite()
        let people = site.members("owner", "mina")
        let url = try crew(people[0], name: "Dawn Patrol")
        people[1].post(url + "/join", [], from: url)
        let start = LocalDateTime.text(Date().addingTimeInterval(3 * 86_400), .current)
        #expect(people[0].post("/meetups", [
            ("title", "Crew long run"), ("description", ""), ("starts_at", start), ("duration", "90"), ("place_name", "Park"),
            ("address", ""), ("latitude", ""), ("longitude", ""), ("place_note", ""), ("region", "seoul"), ("time_slot", "weekend"),
            ("distance", "21"), ("pace", "average"), ("style", "run"), ("capacity", "10"), ("signup_mode", "firstCome"),
            ("deadline", ""), ("gender_rule", "any"), ("crew", "dawn-patrol"),
        ], from: "/meetups/new?crew=dawn-patrol").status == .seeOther)
        let meetups = site.browser().get(url + "/meetups")
        #expect(meetups.status == .ok)
        #expect(meetups.bodyText.contains("Crew long run"))
        people[0].post(url + "/retros", [("name", "Spring season"), ("starts_at", start)], from: url + "/retros")
        #expect(people[1].get(url + "/retros").bodyText.contains("Spring season"))
        #expect(site.browser().get("/crews/no-such-crew/meetups").status == .notFound)
    }

    @Test func membersWriteOnTheWallAndAuthorsOrStaffDelete() throws {
        let site = try TestSite()
        let people = site.members("owner", "mina", "jun")
        let (owner, mina, jun) = (people[0], people[1], people[2])
        let url = try crew(owner, name: "Wall Runners")
        #expect(mina.post(url + "/comments", [("body", "Who is in for <b>Saturday</b>?")], from: url).headers["Location"] == url + "#comments")
        #expect(mina.post(url + "/comments", [("body", "")], from: url).status == .unprocessableContent)
        let page = jun.get(url).bodyText
        // Markdown, with the raw HTML left out
        #expect(page.contains("Who is in for <!-- raw HTML omitted -->Saturday<!-- raw HTML omitted -->?"))
        #expect(!page.contains("<b>Saturday"))
        let delete = try #require(owner.get(url).bodyText.firstMatch(of: /action="(\/crews\/wall-runners\/comments\/\d+\/delete)"/)?.1)
        // Someone else who is not staff cannot delete it; staff can
        #expect(jun.post(String(delete), [], from: url).status == .forbidden)
        #expect(jun.get(url).bodyText.contains("Saturday"))
        #expect(owner.post(String(delete), [], from: url).status == .seeOther)
        #expect(!jun.get(url).bodyText.contains("Saturday"))
    }

    @Test func staffRemoveAndDemoteMembersAndRenewTheInviteCode() throws {
        let site = try TestSite()
        let people = site.members("owner", "staffer", "mina")
        let (owner, staffer, mina) = (people[0], people[1], people[2])
        let url = try crew(owner, name: "Invite Only", policy: "invite")
        let code = try #require(owner.get(url).bodyText.firstMatch(of: /<code class="code">([A-Z0-9]{6})<\/code>/)?.1)
        staffer.post(url + "/join", [("code", String(code))], from: url)
        mina.post(url + "/join", [("code", String(code))], from: url)
        owner.post(url + "/members/staffer/promote", [], from: url + "/members")
        // A new code: the old one no longer works
        #expect(mina.post(url + "/invite", [], from: url).status == .forbidden)
        #expect(owner.post(url + "/invite", [], from: url).status == .seeOther)
        let renewed = try #require(owner.get(url).bodyText.firstMatch(of: /<code class="code">([A-Z0-9]{6})<\/code>/)?.1)
        #expect(renewed != code)
        // Staff remove a member, who is then outside the crew
        #expect(mina.post(url + "/members/staffer/remove", [], from: url + "/members").status == .forbidden)
        #expect(staffer.post(url + "/members/mina/remove", [], from: url + "/members").status == .seeOther)
        #expect(!owner.get(url + "/members").bodyText.contains("href=\"/u/mina\""))
        #expect(mina.post(url + "/join", [("code", String(code))], from: url).status == .unprocessableContent)
        // The owner makes the staffer a member again, who can then remove no one
        #expect(owner.post(url + "/members/staffer/demote", [], from: url + "/members").status == .seeOther)
        #expect(staffer.post(url + "/invite", [], from: url).status == .forbidden)
    }

    @Test func staffCloseADuesPeriod() throws {
        let site = try TestSite()
        let people = site.members("owner", "mina")
        let url = try crew(people[0], name: "Paying Crew", fee: "10000")
        people[1].post(url + "/join", [], from: url)
        #expect(people[0].post(url + "/dues", [("name", "July dues"), ("amount", "10000"), ("due", "2026-07-31")], from: url + "/ledger").status == .seeOther)
        let close = try #require(people[0].get(url + "/ledger").bodyText.firstMatch(of: /action="(\/crews\/paying-crew\/dues\/\d+\/close)"/)?.1)
        #expect(people[1].post(String(close), [], from: url + "/ledger").status == .forbidden)
        #expect(people[0].post(String(close), [], from: url + "/ledger").headers["Location"] == url + "/ledger")
        let ledger = people[0].get(url + "/ledger").bodyText
        #expect(ledger.contains("July dues"))
        #expect(!ledger.contains(String(close)))
        #expect(people[0].post(url + "/dues/abc/close", [], from: url + "/ledger").status == .notFound)
    }
}
