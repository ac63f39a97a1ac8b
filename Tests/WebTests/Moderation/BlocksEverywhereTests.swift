import Foundation
import HTTP
import Storage
import Testing
@testable import Web

/// "You will no longer see each other", surface by surface: what one of two members who block
/// each other wrote never reaches the other.
@Suite struct BlocksEverywhereTests {
    @Test func theGuestbookHidesTheOthersEntries() throws {
        let site = try TestSite()
        let people = site.people("mina", "troll", "jun")
        let url = try #require(people[0].startCrew("Dawn Runners"))
        people[1].post(url + "/comments", [("body", "Troll was here")], from: url)
        people[2].post(url + "/comments", [("body", "Jun says hi")], from: url)
        #expect(people[0].get(url).bodyText.contains("Troll was here"))
        people[0].post("/u/troll/block", [], from: "/u/troll")
        let page = people[0].get(url).bodyText
        #expect(!page.contains("Troll was here") && page.contains("Jun says hi"))
        // And the blocked member no longer sees the blocker's
        people[0].post(url + "/comments", [("body", "Mina's note")], from: url)
        #expect(!people[1].get(url).bodyText.contains("Mina's note"))
    }

    @Test func nobodyJoinsTheCrewOfSomeoneTheyBlockOrAreBlockedBy() throws {
        let site = try TestSite()
        let people = site.people("mina", "troll")
        let url = try #require(people[0].startCrew("Dawn Runners"))
        people[0].post("/u/troll/block", [], from: "/u/troll")
        #expect(people[1].post(url + "/join", [], from: url).status == .forbidden)
        let slug = String(url.dropFirst("/crews/".count))
        let crewID = try #require(try site.database.crews.crew(slug: slug)?.id)
        let trollID = try #require(try site.database.accounts.user(username: "troll")?.id)
        #expect(try site.database.crews.crewRole(crewID: crewID, userID: trollID) == nil)
    }

    @Test func searchSuggestsNeitherToTheOther() throws {
        let site = try TestSite()
        let people = site.people("mina", "minatroll")
        #expect(people[1].get("/search/suggest?q=mina").bodyText.contains("@mina<"))
        people[0].post("/u/minatroll/block", [], from: "/u/minatroll")
        #expect(!people[1].get("/search/suggest?q=mina").bodyText.contains("/u/mina\""))
        #expect(!people[0].get("/search?q=minatroll").bodyText.contains("/u/minatroll\""))
    }

    @Test func aRoomHidesTheOthersMessages() throws {
        let site = try TestSite()
        let people = site.people("mina", "troll")
        let url = try #require(people[0].startCrew("Dawn Runners"))
        people[1].post(url + "/join", [], from: url)
        let crewID = try #require(try site.database.crews.crew(slug: String(url.dropFirst("/crews/".count)))?.id)
        let room = Paths.talkRoom(try #require(try site.database.talk.crewRoom(crewID: crewID)).storedID)
        people[1].post(room, [("body", "Troll talk")], from: room)
        people[0].post(room, [("body", "Mina talk")], from: room)
        #expect(people[0].get(room).bodyText.contains("Troll talk"))
        people[0].post("/u/troll/block", [], from: "/u/troll")
        let minas = people[0].get(room).bodyText
        #expect(!minas.contains("Troll talk") && minas.contains("Mina talk"))
        #expect(!people[1].get(room).bodyText.contains("Mina talk"))
    }

    @Test func meetupTalkHidesTheOthersMessages() throws {
        let site = try TestSite()
        let people = site.people("hostess", "troll")
        let start = Date().addingTimeInterval(3 * 86_400)
        let url = try #require(people[0].post("/meetups", [
            ("title", "Dawn 10K"), ("starts_at", LocalDateTime.text(start, .current)), ("duration", "60"), ("place_name", "Yeouido Park"),
            ("time_slot", "afterWork"), ("pace", "average"), ("style", "run"), ("capacity", "5"), ("signup_mode", "firstCome"), ("gender_rule", "any"),
        ], from: "/meetups/new").headers["Location"])
        people[1].post(url + "/apply", [], from: url)
        people[1].post(url + "/comments", [("body", "Troll in the talk")], from: url)
        #expect(people[0].get(url).bodyText.contains("Troll in the talk"))
        people[0].post("/u/troll/block", [], from: "/u/troll")
        #expect(!people[0].get(url).bodyText.contains("Troll in the talk"))
    }
}
