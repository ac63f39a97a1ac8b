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

    /// Counted texts follow each language's plural rule: English says "1 member", "2 members";
    /// Korean nouns do not change with a number.
    @Test func countedTextsTakeEachLanguagesPluralForm() throws {
        let site = try TestSite()
        let mina = site.members("mina")[0]
        #expect(site.browser().get("/explore").bodyText.contains("<strong>1</strong> member so far"))
        #expect(mina.post("/posts", [("body", "First run")], from: "/posts/new").status == .seeOther)
        let profile = site.browser().get("/u/mina").bodyText
        #expect(profile.contains("<strong>1</strong> post ·") && profile.contains("<strong>0</strong> followers"))
        let jun = site.members("jun")[0]
        jun.post("/u/mina/follow", [], from: "/u/mina")
        #expect(site.browser().get("/u/mina").bodyText.contains("<strong>1</strong> follower</a>"))
        // The member count is kept a while: a site of its own counts two
        let two = try TestSite()
        _ = two.members("ara", "bora")
        #expect(two.browser().get("/explore").bodyText.contains("<strong>2</strong> members so far"))
        #expect(two.browser(language: "ko").get("/explore").bodyText.contains("<strong>2</strong> 명이 함께하고 있어요"))

        let localizer = site.app.localizer
        #expect(localizer.count(.meetups.groups.left, 1, .en) == "1 place left" && localizer.count(.meetups.groups.left, 2, .en) == "2 places left")
        #expect(localizer.count(.meetups.groups.left, 1, .ko) == localizer.text(.meetups.groups.left_other, .ko, ["count": "1"]))
        #expect(localizer.count(.meetups.checkin.wrong, 1, .en) == "That is not the code. 1 try left.")
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

    @Test func aMeetupsTimeWritesItsDayOnceWithTheWeekday() throws {
        let seoul = try #require(TimeZone(identifier: "Asia/Seoul"))
        let localizer = try Localizer(directory: TestSite.root + "/Templates/i18n", timeZone: seoul)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = seoul
        let at = { (day: Int, hour: Int, minute: Int) in
            try #require(calendar.date(from: DateComponents(year: 2026, month: 11, day: day, hour: hour, minute: minute)))
        }
        let now = try at(24, 12, 0)
        let (six, half7, eleven, one) = (try at(28, 6, 0), try at(28, 7, 30), try at(28, 11, 0), try at(28, 13, 0))
        #expect(localizer.meetupStart(six, .en, now: now) == "Sat, Nov 28 · 6:00\u{202F}AM")
        #expect(localizer.meetupStart(six, .ko, now: now) == "11월 28일 (토) 오전 6:00")
        #expect(localizer.meetupSpan(six, half7, .en, now: now) == "Sat, Nov 28 · 6:00 – 7:30\u{202F}AM (UTC+9)")
        #expect(localizer.meetupSpan(six, half7, .ko, now: now) == "11월 28일 (토) 오전 6:00~7:30 (UTC+9)")
        #expect(localizer.meetupSpan(eleven, one, .en, now: now) == "Sat, Nov 28 · 11:00\u{202F}AM – 1:00\u{202F}PM (UTC+9)")
        #expect(localizer.meetupSpan(eleven, one, .ko, now: now) == "11월 28일 (토) 오전 11:00~오후 1:00 (UTC+9)")
        let overnight = localizer.meetupSpan(try at(28, 22, 0), try at(29, 2, 0), .en, now: now)
        #expect(overnight == "Sat, Nov 28 · 10:00\u{202F}PM – Sun, Nov 29 · 2:00\u{202F}AM (UTC+9)")
        // Another year is named; the zone is an offset, never a raw name like Etc/UTC.
        let nextYear = try #require(calendar.date(from: DateComponents(year: 2027, month: 1, day: 2, hour: 8)))
        #expect(localizer.meetupStart(nextYear, .en, now: now) == "Sat, Jan 2, 2027 · 8:00\u{202F}AM")
        #expect(localizer.meetupStart(nextYear, .ko, now: now) == "2027년 1월 2일 (토) 오전 8:00")
        #expect(Formatters.offsetName(try #require(TimeZone(identifier: "Etc/UTC")), at: now) == "UTC")
        #expect(Formatters.offsetName(try #require(TimeZone(identifier: "Asia/Kolkata")), at: now) == "UTC+5:30")
        #expect(Formatters.offsetName(try #require(TimeZone(identifier: "America/St_Johns")), at: now) == "UTC\u{2212}3:30")
    }
}

import Foundation
