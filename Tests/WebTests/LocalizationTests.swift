import Testing
import HTTP
@testable import Web

@Suite struct LocalizationTests {
    @Test func onlyTheFirstRangesOfAnAcceptLanguageHeaderAreRead() {
        #expect(Language.preferred(by: "fr-CA, fr;q=0.9, ko;q=0.8, en;q=0.7") == .ko)
        let flood = Array(repeating: "xx", count: Language.rangeLimit).joined(separator: ",")
        #expect(Language.preferred(by: flood + ",ko") == nil)
        #expect(Language.preferred(by: "ko," + flood) == .ko)
    }

    @Test func koreanBrowsersGetKoreanPages() throws {
        let site = try TestSite()
        let page = site.browser(language: "ko-KR,ko;q=0.9,en;q=0.5").get("/signup")
        #expect(page.bodyText.contains("<html lang=\"ko\">"))
        #expect(page.bodyText.contains("회원가입"))
        #expect(page.bodyText.contains("비밀번호"))
    }

    @Test func otherBrowsersGetEnglish() throws {
        let site = try TestSite()
        #expect(site.browser(language: "fr-FR,de;q=0.8").get("/login").bodyText.contains("Log in"))
        #expect(site.browser().get("/login").bodyText.contains("<html lang=\"en\">"))
    }

    @Test func errorsAndValidationMessagesAreTranslated() throws {
        let site = try TestSite()
        let browser = site.browser(language: "ko")
        #expect(browser.get("/nowhere").bodyText.contains("페이지를 찾을 수 없어요"))
        let response = browser.signUp(password: "short")
        #expect(response.bodyText.contains("12자에서 128자 사이로 입력해 주세요."))
    }

    @Test func theFooterSwitchRemembersTheChoice() throws {
        let site = try TestSite()
        let browser = site.browser(language: "en")
        let switched = browser.post("/language", [("language", "ko"), ("return_to", "/login")], from: "/login")
        #expect(switched.headers["Location"] == "/login")
        #expect(browser.get("/login").bodyText.contains("아이디 또는 이메일"))
    }

    @Test func bothCatalogsHaveTheSameKeys() throws {
        let localizer = try Localizer(directory: TestSite.root + "/Templates/i18n")
        #expect(localizer.keys(.en) == localizer.keys(.ko))
        #expect(localizer.keys(.en).count > 100)
    }

    @Test func datesAreWrittenTheLanguagesWay() throws {
        let localizer = try Localizer(directory: TestSite.root + "/Templates/i18n", timeZone: .init(identifier: "Asia/Seoul")!)
        let date = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18
        #expect(localizer.monthYear(date, .en) == "November 2026")
        #expect(localizer.monthYear(date, .ko) == "2026년 11월")
        #expect(localizer.number(12345, .ko) == "12,345")
    }
}

import Foundation
