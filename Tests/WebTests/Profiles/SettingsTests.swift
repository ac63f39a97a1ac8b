import Testing
import HTTP
import Storage
@testable import Web

@Suite struct SettingsTests {
    @Test func settingsAskVisitorsToLogInFirst() throws {
        let site = try TestSite()
        let response = site.browser().get("/settings")
        #expect(response.status == .seeOther)
        #expect(response.headers["Location"] == "/login?next=%2Fsettings")
    }

    @Test func aMemberEditsTheirProfile() throws {
        let site = try TestSite()
        let browser = site.browser()
        browser.signUp(username: "mina")
        let saved = browser.post("/settings", [
            ("display_name", "Mina the Runner"), ("bio", "Han river at 6am.\nSub-50 10K."),
            ("gender", "female"), ("birth_year", "1990"), ("job", "design"), ("region", "busan"), ("language", "ko"),
        ])
        #expect(saved.status == .seeOther)
        let settings = browser.get("/settings").bodyText
        #expect(settings.contains("프로필을 저장했어요."))  // the language setting applies at once
        let profile = browser.get("/u/mina").bodyText
        #expect(profile.contains("Mina the Runner"))
        #expect(profile.contains("Sub-50 10K."))
        #expect(profile.contains("부산"))
    }

    @Test func anInvalidProfileIsReShownWith422() throws {
        let site = try TestSite()
        let browser = site.browser()
        browser.signUp(username: "mina")
        let response = browser.post("/settings", [("display_name", ""), ("bio", String(repeating: "x", count: 501))])
        #expect(response.status == .unprocessableContent)
        #expect(response.bodyText.contains("id=\"display_name-error\""))
        #expect(response.bodyText.contains("id=\"bio-error\""))
        #expect(try site.database.accounts.user(username: "mina")?.displayName == "Mina Kim")
    }

    @Test func changingThePasswordSignsOutOtherBrowsers() throws {
        let site = try TestSite()
        let phone = site.browser()
        phone.signUp(username: "mina")
        let laptop = site.browser()
        laptop.logIn("mina")
        #expect(laptop.get("/settings").status == .ok)

        let wrong = phone.post("/settings/password", [
            ("current_password", "not my password"), ("new_password", "a brand new passphrase"),
            ("new_password_confirmation", "a brand new passphrase"),
        ], from: "/settings")
        #expect(wrong.status == .unprocessableContent)
        #expect(wrong.bodyText.contains("Your current password is not right."))

        let changed = phone.post("/settings/password", [
            ("current_password", "correct horse battery"), ("new_password", "a brand new passphrase"),
            ("new_password_confirmation", "a brand new passphrase"),
        ], from: "/settings")
        #expect(changed.status == .seeOther)
        #expect(phone.get("/settings").status == .ok)
        #expect(laptop.get("/settings").status == .seeOther)
        #expect(site.browser().logIn("mina", "a brand new passphrase").status == .seeOther)
    }
}
