import Formats
import Foundation
import HTTP
import Storage
import Testing
@testable import Web

/// Settings → Signed-in browsers: each session named by its browser, signed out one by one
/// or all but this one; the private calendar address renewed on demand, with "sign out
/// everywhere" and with a new password.
@Suite struct SignedInBrowsersTests {
    private let android = "Mozilla/5.0 (Linux; Android 14; SM-S918N) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0 Mobile Safari/537.36"
    private let iPhone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"

    private func calendarPath(_ site: TestSite, _ username: String) throws -> String {
        let id = try #require(try site.database.accounts.user(username: username)).storedID
        return "/calendar/" + (try site.database.meetups.calendarToken(userID: id) { Crypto.randomToken(24) }) + ".ics"
    }

    @Test func eachBrowserIsNamedAndSignedOutAlone() throws {
        let site = try TestSite()
        site.members("mina")[0].logOut()
        let phone = site.browser(), laptop = site.browser(), tablet = site.browser()
        #expect(phone.post("/login", [("login", "mina"), ("password", "correct horse battery")], headers: [("User-Agent", android)]).status == .seeOther)
        #expect(laptop.post("/login", [("login", "mina"), ("password", "correct horse battery")], headers: [("User-Agent", iPhone)]).status == .seeOther)
        #expect(tablet.post("/login", [("login", "mina"), ("password", "correct horse battery")], headers: [("User-Agent", "<script>\u{7}x")]).status == .seeOther)
        let page = phone.get("/settings/browsers").bodyText
        #expect(page.contains("Samsung Internet on Android") && page.contains("Safari on iPhone") && page.contains("An unknown browser"))
        #expect(page.contains("This browser") && !page.contains("<script>"))
        let korean = phone.get("/settings/browsers", headers: [("Accept-Language", "ko")])
        #expect(korean.status == .ok)

        // Signing the iPhone out from the phone
        let ids = try site.database.sessions.sessions(userID: try #require(try site.database.accounts.user(username: "mina")).storedID)
        let iPhoneSession = try #require(ids.first { $0.userAgent == iPhone }).storedID
        #expect(phone.post("/settings/browsers/\(iPhoneSession)/end", [], from: "/settings/browsers").status == .seeOther)
        #expect(laptop.get("/settings").status == .seeOther, "the iPhone is signed out")
        #expect(phone.get("/settings").status == .ok)
        // Someone else's session, a gone one, or nonsense: 404
        let jun = site.members("jun")[0]
        let phoneSession = try #require(ids.first { $0.userAgent == android }).storedID
        for target in ["\(phoneSession)", "\(iPhoneSession)", "1e400", "99999999999999999999", "-1"] {
            #expect(jun.post("/settings/browsers/\(target)/end", [], from: "/settings/browsers").status == .notFound)
        }
        #expect(phone.get("/settings").status == .ok)
        // Signing this browser out is signing out
        let selfEnd = phone.post("/settings/browsers/\(phoneSession)/end", [], from: "/settings/browsers")
        #expect(selfEnd.headers["Location"] == "/" && phone.get("/settings").status == .seeOther)
        #expect(tablet.get("/settings").status == .ok)
    }

    @Test func signingOutEverywhereElseRenewsTheCalendarAndSoDoAPasswordAndTheButton() throws {
        let site = try TestSite()
        let people = site.members("mina")
        let here = people[0], there = site.browser()
        there.logIn("mina")
        let calendar = try calendarPath(site, "mina")
        #expect(here.get(calendar).status == .ok)
        #expect(here.post("/settings/browsers/end-others", [], from: "/settings/browsers").status == .seeOther)
        #expect(there.get("/settings").status == .seeOther && here.get("/settings").status == .ok)
        #expect(site.browser().get(calendar).status == .notFound, "the old calendar address answers nothing")

        let renewed = try calendarPath(site, "mina")
        #expect(renewed != calendar && site.browser().get(renewed).status == .ok)
        #expect(here.post("/settings/calendar/renew", [], from: "/settings/browsers").status == .seeOther)
        #expect(site.browser().get(renewed).status == .notFound)

        let third = try calendarPath(site, "mina")
        #expect(here.post("/settings/password", [("current_password", "correct horse battery"), ("new_password", "a brand new passphrase"),
                                                 ("new_password_confirmation", "a brand new passphrase")], from: "/settings").status == .seeOther)
        #expect(site.browser().get(third).status == .notFound)
    }

    @Test func aSuspendedMembersCalendarAnswersNothing() throws {
        let (site, _, moderator, mina, _) = try TestSite.staffed()
        _ = mina
        let calendar = try calendarPath(site, "mina")
        #expect(site.browser().get(calendar).status == .ok)
        #expect(moderator.post("/admin/users/mina/sanction", [("action", "suspend"), ("days", "7"), ("reason", "Spam")], from: "/admin/users/mina").status
            == .seeOther)
        #expect(site.browser().get(calendar).status == .notFound)
    }

    @Test(arguments: [
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/121.0 Safari/537.36 Edg/121.0", "Edge", "Windows"),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 KAKAOTALK 10.4.5", "KakaoTalk", "iPhone"),
        ("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "Firefox", "Linux"),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15", "Safari", "macOS"),
    ])
    func browsersAreNamedAsPeopleKnowThem(_ agent: String, _ browser: String, _ system: String) {
        let name = BrowserName(userAgent: agent)
        #expect(name.browser == browser && name.system == system)
    }
}
