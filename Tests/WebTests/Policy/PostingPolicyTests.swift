import Foundation
import Testing
import HTTP
import Storage
@testable import Web

/// Who may write: silenced members read but do not write, and new accounts meet daily caps.
@Suite struct PostingPolicyTests {
    @Test func silencedMembersReadButCannotPost() throws {
        let (_, _, moderator, mina, _) = try TestSite.staffed()
        moderator.post("/admin/users/mina/sanction", [("action", "silence"), ("reason", "cool down"), ("days", "1")], from: "/admin/users/mina")
        #expect(mina.get("/").status == .ok)
        let attempt = mina.post("/posts", [("body", "still here")], from: "/posts/new")
        #expect(attempt.status == .forbidden)
        #expect(attempt.bodyText.contains("cool down"))
    }
    @Test func newAccountsHitDailyCapsWith429() throws {
        var configuration = TestSite.configuration()
        configuration.newAccountLimits.days = 3
        configuration.newAccountLimits.perDay[.posts] = 2
        let site = try TestSite(configuration: configuration)
        let newbie = site.members("newbie")[0]
        #expect(newbie.post("/posts", [("body", "one")], from: "/posts/new").status == .seeOther)
        #expect(newbie.post("/posts", [("body", "two")], from: "/posts/new").status == .seeOther)
        let third = newbie.post("/posts", [("body", "three")], from: "/posts/new")
        #expect(third.status == .tooManyRequests)
        #expect(third.headers["Retry-After"] != nil)
        #expect(third.bodyText.contains("first 3 days"))
        let links = newbie.post("/posts", [("body", "http://a.example http://b.example http://c.example")], from: "/posts/new")
        #expect(links.status != .seeOther)
    }
}
