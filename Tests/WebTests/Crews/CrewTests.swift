import Foundation
import Testing
import HTTP
import Storage
@testable import Web

@Suite struct CrewTests {
    private func createCrew(_ browser: Browser, name: String, policy: String = "open", cap: String = "", fee: String = "0") -> HTTPResponse {
        browser.postMultipart("/crews", [
            ("name", name), ("slug", ""), ("sport", "running"), ("region", "seoul"), ("description", "We run **every Saturday**."),
            ("meeting_time", "Sat 7:00"), ("meeting_place", "Yeouido"), ("fee_amount", fee), ("fee_currency", "KRW"),
            ("fee_period", "month"), ("join_policy", policy), ("member_cap", cap),
        ], files: [], from: "/crews/new")
    }

    @Test func aCrewsCalendarShowsItsMonthOfMeetupsAndFeedsCalendarApps() throws {
        let site = try TestSite()
        let people = site.members("owner", "mina")
        let (owner, mina) = (people[0], people[1])
        let crew = try #require(owner.startCrew("Dawn Runners"))
        mina.post(crew + "/join", [], from: crew)
        let start = Date().addingTimeInterval(3 * 86_400)
        let fields = { (title: String, crewOnly: Bool) -> [(String, String)] in
            [("title", title), ("description", ""), ("starts_at", LocalDateTime.text(start, .current)), ("duration", "60"), ("place_name", "Yeouido Park"),
             ("pace", "average"), ("style", "run"), ("capacity", "10"), ("signup_mode", "firstCome"), ("gender_rule", "any"), ("crew", "dawn-runners")]
                + (crewOnly ? [("crew_only", "on")] : [])
        }
        #expect(owner.post("/meetups", fields("Open long run", false), from: "/meetups/new").status == .seeOther)
        #expect(owner.post("/meetups", fields("Members tempo", true), from: "/meetups/new").status == .seeOther)
        let month = String(LocalDateTime.text(start, .current).prefix(7))

        let memberView = mina.get(crew + "/meetups?month=" + month).bodyText
        #expect(memberView.contains(#"id="calendar""#) && memberView.contains("Open long run") && memberView.contains("Members tempo"))
        let visitorView = site.browser().get(crew + "/meetups?month=" + month).bodyText
        #expect(visitorView.contains("Open long run") && !visitorView.contains("Members tempo"))
        for bad in ["99999-01", "2026-13", "abc", "2026-1", "%00"] {
            #expect(mina.get(crew + "/meetups?month=" + bad).status == .badRequest, "month \(bad)")
        }

        // Calendar apps: the public feed lists what anyone may see; a member's address, the rest too
        let feed = site.browser().get(crew + "/calendar.ics")
        #expect(feed.status == .ok && feed.headers["Content-Type"] == "text/calendar; charset=utf-8")
        #expect(feed.bodyText.contains("SUMMARY:Open long run") && !feed.bodyText.contains("Members tempo"))
        let link = try #require(memberView.firstMatch(of: /href="(\/crews\/dawn-runners\/calendar\.ics\?key=[A-Za-z0-9_-]+)"/)?.1)
        let members = site.browser().get(String(link)).bodyText
        #expect(members.contains("SUMMARY:Open long run") && members.contains("SUMMARY:Members tempo"))
        #expect(site.browser().get(crew + "/calendar.ics?key=" + String(repeating: "A", count: 32)).status == .notFound)
        // Someone else's address is no key to a crew they are not in
        let outsider = site.members("outsider")[0]
        let theirs = try #require(outsider.get("/meetups").bodyText.firstMatch(of: /href="\/calendar\/([A-Za-z0-9_-]+)\.ics"/)?.1)
        #expect(site.browser().get(crew + "/calendar.ics?key=" + theirs).status == .notFound)
    }

    @Test func anInviteLinkBringsANewcomerBackToTheCrewAfterSignupOrLogin() throws {
        let site = try TestSite()
        let owner = site.members("owner")[0]
        let crew = try #require(owner.startCrew("Night Owls", policy: "invite"))
        // Staff see the link to pass on, with the code in it
        let staffPage = owner.get(crew).bodyText
        let link = try #require(staffPage.firstMatch(of: /readonly value="http:\/\/[^"\/]+(\/crews\/night-owls\?code=([A-Z0-9]{6}))"/))
        let (invite, code) = (String(link.1), String(link.2))

        // A visitor who follows it is offered to sign up or sign in, and either way back here
        let visitor = site.browser()
        let page = visitor.get(invite).bodyText
        let back = PercentEncoding.encode(invite)
        #expect(page.contains("/signup?next=" + back) && page.contains("/login?next=" + back))
        let signupForm = visitor.get("/signup?next=" + back).bodyText
        #expect(signupForm.contains(#"name="next" value="\#(invite)""#))
        let created = visitor.signUp(username: "newbie", extra: [("next", invite)])
        #expect(created.status == .seeOther && created.headers["Location"] == invite)
        // Signed in now, the code is filled in and joining works
        let joinPage = visitor.get(invite).bodyText
        #expect(joinPage.contains(#"value="\#(code)" required"#))
        #expect(visitor.post(crew + "/join", [("code", code)], from: invite).status == .seeOther)
        #expect(visitor.get(crew).bodyText.contains("/leave"))

        // Someone with an account signs in from the link and comes back the same way
        let member = site.members("member")[0]
        member.logOut()
        let login = member.post("/login", [("login", "member"), ("password", "correct horse battery"), ("next", invite)])
        #expect(login.status == .seeOther && login.headers["Location"] == invite)
        // A hostile way back goes home instead, and a hostile code is dropped
        #expect(site.browser().signUp(username: "evil", extra: [("next", "//evil.example/x")]).headers["Location"] == "/")
        #expect(!site.browser().get(crew + "?code=%22%3E%3Cscript%3E").bodyText.contains("<script>"))
    }

    @Test func aKoreanNamedCrewGetsAUsableSlugAndCollisionsGetDistinctOnes() throws {
        let site = try TestSite()
        let owner = site.browser()
        owner.signUp(username: "owner")
        let first = createCrew(owner, name: "한강 러닝 크루")
        #expect(first.status == .seeOther)
        #expect(first.headers["Location"] == "/crews/hangang-leoning-keulu")
        #expect(createCrew(owner, name: "한강 러닝 크루").headers["Location"] == "/crews/hangang-leoning-keulu-2")
        let page = owner.get("/crews/hangang-leoning-keulu").bodyText
        #expect(page.contains("<strong>every Saturday</strong>"))
        #expect(owner.get("/crews?q=%ED%95%9C%EA%B0%95").bodyText.contains("hangang-leoning-keulu-2"))
    }

    @Test func approvalRequestsAreAcceptedByStaffOnly() throws {
        let site = try TestSite()
        let browsers = site.members("owner", "mina", "jun")
        let (owner, mina, jun) = (browsers[0], browsers[1], browsers[2])
        let url = try #require(createCrew(owner, name: "Night Owls", policy: "approval").headers["Location"])
        #expect(mina.post(url + "/join", [], from: url).status == .seeOther)
        #expect(mina.get(url).bodyText.contains("Your request is waiting"))
        #expect(owner.get("/notifications").bodyText.contains("asked to join Night Owls"))

        // A member who is not staff cannot accept: 403, and nothing changes.
        jun.post(url + "/join", [], from: url)
        owner.post(url + "/members/jun/accept", [], from: url + "/members")
        let forbidden = jun.post(url + "/members/mina/accept", [], from: url)
        #expect(forbidden.status == .forbidden)
        #expect(try site.database.crews.crewRole(crewID: site.database.crews.crew(slug: "night-owls")!.storedID, userID: site.database.accounts.user(username: "mina")!.storedID) == .pending)

        // The owner accepts; Mina is told.
        #expect(owner.post(url + "/members/mina/accept", [], from: url + "/members").status == .seeOther)
        #expect(mina.get("/notifications").bodyText.contains("accepted you into Night Owls"))
        #expect(owner.get(url + "/members").bodyText.contains("Mina Kim"))
    }

    @Test func staffCannotHandOverTheCrew() throws {
        let site = try TestSite()
        let browsers = site.members("owner", "staffer")
        let (owner, staff) = (browsers[0], browsers[1])
        let url = try #require(createCrew(owner, name: "Trail Cats").headers["Location"])
        staff.post(url + "/join", [], from: url)
        owner.post(url + "/members/staffer/promote", [], from: url + "/members")
        let attempt = staff.post(url + "/members/owner/transfer", [], from: url)
        #expect(attempt.status == .forbidden)
        #expect(owner.post(url + "/leave", [], from: url).status == .conflict)
        let crewID = try #require(try site.database.crews.crew(slug: "trail-cats")?.id)
        #expect(try site.database.crews.crewRole(crewID: crewID, userID: site.database.accounts.user(username: "owner")!.storedID) == .owner)
    }

    @Test func inviteCodesAndCapsAreEnforced() throws {
        let site = try TestSite()
        let browsers = site.members("owner", "mina", "jun")
        let (owner, mina, jun) = (browsers[0], browsers[1], browsers[2])
        let url = try #require(createCrew(owner, name: "Secret Runners", policy: "invite", cap: "2").headers["Location"])
        let code = try #require(owner.get(url).bodyText.firstMatch(of: /<code class="code">([A-Z0-9]{6})<\/code>/)?.1)
        #expect(mina.post(url + "/join", [("code", "WRONG1")], from: url).status == .unprocessableContent)
        #expect(mina.post(url + "/join", [("code", String(code).lowercased())], from: url).status == .seeOther)
        let full = jun.post(url + "/join", [("code", String(code))], from: url)
        #expect(full.status == .conflict || full.status == .forbidden)
        #expect(try site.database.crews.crew(slug: "secret-runners")?.memberCount == 2)
    }

    @Test func staffRecordDuesAndMembersSeeTheLedger() throws {
        let site = try TestSite()
        let browsers = site.members("owner", "mina", "visitor")
        let (owner, mina, visitor) = (browsers[0], browsers[1], browsers[2])
        let url = try #require(createCrew(owner, name: "Paying Club", fee: "10000").headers["Location"])
        mina.post(url + "/join", [], from: url)
        let today = String(InternetDate.format(Date()).prefix(10))
        #expect(owner.post(url + "/ledger", [("kind", "dues"), ("member", "mina"), ("amount", "10000"), ("date", today), ("note", "")], from: url + "/ledger").status == .seeOther)
        #expect(owner.post(url + "/ledger", [("kind", "expense"), ("member", ""), ("amount", "2500"), ("date", today), ("note", "water")], from: url + "/ledger").status == .seeOther)
        #expect(mina.post(url + "/ledger", [("kind", "income"), ("amount", "1"), ("date", today)], from: url).status == .forbidden)
        #expect(owner.post(url + "/ledger", [("kind", "dues"), ("member", ""), ("amount", "-5"), ("date", "soon")], from: url + "/ledger").status == .unprocessableContent)
        let ledger = mina.get(url + "/ledger").bodyText
        #expect(ledger.contains("₩10,000") && ledger.contains("₩2,500") && ledger.contains("₩7,500"))
        #expect(mina.get(url + "/members").bodyText.contains("dues paid"))
        // A member outside the crew gets 403; someone not signed in is sent to sign in, and back.
        #expect(visitor.get(url + "/ledger").status == .forbidden)
        let anonymous = site.browser().get(url + "/ledger")
        #expect(anonymous.status == .seeOther)
        #expect(anonymous.headers["Location"] == Paths.login(next: url + "/ledger"))

        // Mina leaves: her line still names her, on the page and in the treasurer's CSV
        #expect(mina.post(url + "/leave", [], from: url).status == .seeOther)
        #expect(owner.get(url + "/ledger").bodyText.contains("Mina Kim"))
        let csv = owner.get(url + "/ledger.csv")
        #expect(csv.status == .ok && csv.bodyText.contains(",dues,mina,10000,"))
    }

    @Test func theAboutTabLeadsWithTheNextMeetupAndTheMembersAndSubPagesKeepAShortHead() throws {
        let site = try TestSite()
        let browsers = site.members("owner", "mina")
        let (owner, mina) = (browsers[0], browsers[1])
        let url = try #require(createCrew(owner, name: "Dawn Club").headers["Location"])
        mina.post(url + "/join", [], from: url)
        let start = LocalDateTime.text(Date().addingTimeInterval(2 * 86_400), .current)
        #expect(owner.post("/meetups", [
            ("title", "Crew tempo run"), ("description", ""), ("starts_at", start), ("duration", "60"), ("place_name", "Gate 2"),
            ("address", ""), ("latitude", ""), ("longitude", ""), ("place_note", ""), ("region", "seoul"), ("time_slot", "afterWork"),
            ("distance", "8"), ("pace", "average"), ("style", "run"), ("capacity", "10"), ("signup_mode", "firstCome"),
            ("deadline", ""), ("gender_rule", "any"), ("crew", String(url.split(separator: "/").last ?? "")),
        ], from: "/meetups/new").status == .seeOther)

        let about = mina.get(url).bodyText
        #expect(about.contains("Next meetup") && about.contains("Crew tempo run"))
        #expect(about.contains("Members <span class=\"muted\">2</span>") && about.contains("href=\"/u/mina\" title=\"Mina Kim\""))
        #expect(about.contains("class=\"card crew-head\""))
        let members = mina.get(url + "/members").bodyText
        #expect(members.contains("class=\"crew-compact\"") && !members.contains("class=\"card crew-head\""))
        #expect(members.components(separatedBy: "<h1>").count == 2)
    }

    @Test func crewPostsReachMembersHomeFeeds() throws {
        let site = try TestSite()
        let browsers = site.members("owner", "mina", "outsider")
        let (owner, mina, outsider) = (browsers[0], browsers[1], browsers[2])
        let url = try #require(createCrew(owner, name: "Feed Crew").headers["Location"])
        mina.post(url + "/join", [], from: url)
        #expect(owner.post("/posts", [("body", "Crew news: route change"), ("crew", "feed-crew")], from: "/posts/new?crew=feed-crew").status == .seeOther)
        #expect(mina.get("/").bodyText.contains("Crew news: route change"))
        #expect(owner.get(url + "/posts").bodyText.contains("Crew news"))
        #expect(outsider.post("/posts", [("body", "spam"), ("crew", "feed-crew")], from: "/posts/new").status == .forbidden)
        // Staff moderate posts in their crew; an outsider cannot delete them.
        let memberPost = try #require(mina.post("/posts", [("body", "off-topic"), ("crew", "feed-crew")], from: "/posts/new").headers["Location"])
        #expect(outsider.post(memberPost + "/delete", [], from: memberPost).status == .notFound)
        #expect(owner.get(memberPost).bodyText.contains("Delete (crew staff)"))
        #expect(owner.post(memberPost + "/delete", [], from: memberPost).status == .seeOther)
        #expect(owner.get(memberPost).status == .notFound)
        #expect(owner.get("/u/mina").bodyText.contains("Feed Crew"))
    }
}
