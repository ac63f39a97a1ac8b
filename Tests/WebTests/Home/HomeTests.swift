import Foundation
import Testing
import HTTP
import Storage
@testable import Web

/// The home page and explore: everyone's posts, newest first, page after page.
@Suite struct HomeTests {
    @Test func aMembersHomeHoldsWhomTheyFollowAndAVisitorsHoldsEveryone() throws {
        // Given Mina follows Jun, and Hana posts too
        let site = try TestSite()
        let people = site.members("mina", "jun", "hana")
        people[0].post("/u/jun/follow", [], from: "/u/jun")
        people[1].post("/posts", [("body", "Easy run along the river")], from: "/posts/new")
        people[2].post("/posts", [("body", "Intervals on the track")], from: "/posts/new")
        // Then Mina's home greets her with Jun's post, not Hana's
        let home = people[0].get("/").bodyText
        #expect(home.contains("Welcome, Mina"))
        #expect(home.contains("Easy run along the river"))
        #expect(!home.contains("Intervals on the track"))
        // And a visitor's home is everyone's
        let visitor = site.browser().get("/").bodyText
        #expect(visitor.contains("Intervals on the track") && visitor.contains("Easy run along the river"))
        #expect(!visitor.contains("Welcome, "))
    }

    @Test func olderPostsLinkWalksTheWholeFeed() throws {
        let site = try TestSite()
        let mina = site.browser()
        mina.signUp(username: "mina")
        for number in 1...25 { mina.post("/posts", [("body", "post number \(number)")], from: "/posts/new") }
        let first = mina.get("/explore").bodyText
        #expect(first.contains("post number 25") && !first.contains("post number 5<"))
        let older = try #require(first.firstMatch(of: /href="(\/explore\?before=\d+)" rel="next"/)?.1)
        let second = mina.get(String(older)).bodyText
        #expect(second.contains("post number 5<") && second.contains("post number 1<") && !second.contains("post number 25"))
        #expect(mina.get("/explore?before=abc").status == .badRequest)
    }
}
