import Foundation
import HTTP
import Testing
@testable import Web

/// Who follows a member and whom they follow, and the running preferences in settings.
@Suite struct FollowListsTests {
    @Test func followersAndFollowingListEachOther() throws {
        let site = try TestSite()
        let people = site.members("mina", "jun", "hana")
        people[1].post("/u/mina/follow", [], from: "/u/mina")
        people[2].post("/u/mina/follow", [], from: "/u/mina")
        let followers = people[0].get("/u/mina/followers")
        #expect(followers.status == .ok)
        #expect(followers.bodyText.contains("href=\"/u/jun\"") && followers.bodyText.contains("href=\"/u/hana\""))
        let following = site.browser().get("/u/jun/following")
        #expect(following.status == .ok)
        #expect(following.bodyText.contains("href=\"/u/mina\""))
        #expect(!following.bodyText.contains("href=\"/u/hana\""))
        #expect(site.browser().get("/u/nobody/followers").status == .notFound)
    }

    @Test func runningPreferencesAreSavedAndShownInMiles() throws {
        let site = try TestSite()
        let mina = site.members("mina")[0]
        #expect(mina.post("/settings/running", [("units", "mi"), ("leaderboard", "on")], from: "/settings").headers["Location"] == "/settings")
        let settings = mina.get("/settings").bodyText
        #expect(settings.contains(#"<option value="mi" selected>"#))
        #expect(settings.contains(#"<input type="checkbox" name="leaderboard" checked>"#))
        // Anything but miles is kilometres
        mina.post("/settings/running", [("units", "furlongs")], from: "/settings")
        let after = mina.get("/settings").bodyText
        #expect(after.contains(#"<option value="km" selected>"#))
        #expect(!after.contains(#"name="leaderboard" checked"#))
    }
}
