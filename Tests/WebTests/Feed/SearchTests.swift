import Foundation
import Testing
import HTTP
import Storage
@testable import Web

/// The search page and the search box's suggestions, as a visitor and a member see them.
@Suite struct SearchTests {
    private func hostMeetup(_ browser: Browser, title: String, crewOnly: Bool = false) -> String {
        let local = LocalDateTime.text(Date().addingTimeInterval(3 * 86_400), .current)
        let fields = [
            ("title", title), ("description", "Steady."), ("starts_at", local), ("duration", "60"), ("place_name", "Yeouido Park"),
            ("address", "Seoul"), ("latitude", ""), ("longitude", ""), ("place_note", ""), ("region", "seoul"), ("time_slot", "weekend"),
            ("distance", "10"), ("pace", "average"), ("style", "run"), ("capacity", "5"), ("signup_mode", "approval"), ("deadline", ""),
            ("gender_rule", "any"),
        ]
        return browser.post("/meetups", fields, from: "/meetups/new").headers["Location"] ?? ""
    }

    @Test func suggestionsNamePeopleCrewsTagsAndMeetupsThenTheSearch() throws {
        let site = try TestSite()
        let mina = site.browser()
        mina.signUp(username: "mina", displayName: "한강 Mina")
        mina.postMultipart("/crews", [
            ("name", "한강 Night Runners"), ("slug", ""), ("sport", "running"), ("region", "seoul"), ("description", "Every Friday."),
            ("meeting_time", "Fri 20:00"), ("meeting_place", "Yeouido"), ("fee_amount", "0"), ("fee_currency", "KRW"),
            ("fee_period", "month"), ("join_policy", "open"), ("member_cap", ""),
        ], files: [], from: "/crews/new")
        mina.post("/posts", [("body", "밤에 한강 러닝 #한강러닝")], from: "/posts/new")
        let meetup = hostMeetup(mina, title: "한강 야간 10K")

        let visitor = site.browser()
        let answer = visitor.get("/search/suggest?q=%ED%95%9C%EA%B0%95")  // 한강
        #expect(answer.status == .ok)
        #expect(answer.headers["Content-Type"] == "text/html; charset=utf-8")
        let fragment = answer.bodyText
        // A fragment for the list, not a page: options in groups, each a link.
        #expect(!fragment.contains("<html") && fragment.hasPrefix("<div role=\"listbox\""))
        #expect(fragment.contains("href=\"/u/mina\"") && fragment.contains("한강 Mina"))
        #expect(fragment.contains("한강 Night Runners") && fragment.contains("1 member"))
        #expect(fragment.contains("href=\"/tags/%ED%95%9C%EA%B0%95%EB%9F%AC%EB%8B%9D\"") && fragment.contains("1 post"))
        #expect(fragment.contains("href=\"\(meetup)\"") && fragment.contains("한강 야간 10K"))
        #expect(fragment.contains("Search posts for “한강”") && fragment.contains("href=\"/search?q=%ED%95%9C%EA%B0%95\""))
        #expect(fragment.contains("data-announce=\"5 suggestions."))
        #expect(fragment.components(separatedBy: "role=\"option\"").count == 6)

        // In Korean, and from two syllables the search page finds the post.
        let korean = site.browser(language: "ko")
        #expect(korean.get("/search/suggest?q=%EC%95%BC%EA%B0%84").bodyText.contains("다가오는 모임"))  // 야간
        #expect(visitor.get("/search?q=%EB%9F%AC%EB%8B%9D").bodyText.contains("<mark>러닝</mark>"))  // 러닝
    }

    @Test func oneCharacterSuggestsOnlyTheSearchAndHostileTextStaysText() throws {
        let site = try TestSite()
        let visitor = site.browser()
        let one = visitor.get("/search/suggest?q=a").bodyText
        #expect(one.components(separatedBy: "role=\"option\"").count == 2 && one.contains("data-announce=\"1 suggestion."))
        let script = visitor.get("/search/suggest?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E").bodyText
        #expect(!script.contains("<script") && script.contains("&lt;script&gt;"))
        for target in ["/search/suggest", "/search/suggest?q=", "/search/suggest?q=%00%00", "/search/suggest?q=%25%25",
                       "/search/suggest?q=" + String(repeating: "%EA%B0%80", count: 500), "/search/suggest?q=%FF%FE"] {
            #expect(visitor.get(target).status == .ok, "\(target)")
        }
    }

    @Test func excerptsAreEscapedAroundTheirMarks() {
        #expect(App.markedExcerpt("<b>\u{1}run & go\u{2}</b>") == "&lt;b&gt;<mark>run &amp; go</mark>&lt;/b&gt;")
        #expect(App.markedExcerpt("no marks \"here\"") == "no marks &quot;here&quot;")
        #expect(App.markedExcerpt("\u{1}\u{2}") == "<mark></mark>")
    }
}
