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
