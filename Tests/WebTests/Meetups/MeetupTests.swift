import Foundation
import Synchronization
import Testing
import HTTP
import Storage
import TestSupport
@testable import Web

@Suite struct MeetupTests {
    private func host(_ browser: Browser, extra: [(String, String)] = []) -> HTTPResponse {
        let start = Date().addingTimeInterval(3 * 86_400)
        let local = LocalDateTime.text(start, .current)
        var fields: [String: String] = [
            "title": "Evening 5K, Han river", "description": "Easy pace; we regroup.", "starts_at": local, "duration": "60",
            "place_name": "Yeouido Park", "address": "Seoul, Yeouido", "latitude": "37.5283", "longitude": "126.9327",
            "place_note": "Gate 2", "region": "seoul", "time_slot": "afterWork", "distance": "5", "pace": "average",
            "style": "run", "capacity": "2", "signup_mode": "firstCome", "deadline": "", "gender_rule": "any",
        ]
        for (name, value) in extra { fields[name] = value }
        return browser.post("/meetups", fields.map { ($0.key, $0.value) }, from: "/meetups/new")
    }

    @Test func aMeetupFillsUpThenWaitlistsAndTheTalkIsPrivate() throws {
        let site = try TestSite()
        let people = site.members("hostess", "mina", "jun", "hana")
        let created = host(people[0])
        #expect(created.status == .seeOther)
        let url = try #require(created.headers["Location"])
        #expect(people[0].get(url).bodyText.contains("You are hosting this meetup."))

        #expect(people[1].post(url + "/apply", [], from: url).status == .seeOther)
        #expect(people[2].post(url + "/apply", [], from: url).status == .seeOther)
        #expect(people[3].get(url).bodyText.contains("Join the waitlist"))
        people[3].post(url + "/apply", [], from: url)
        #expect(people[3].get(url).bodyText.contains("You are on the waitlist: #1"))

        // The talk thread: people going may write; the waitlisted get 403.
        #expect(people[1].post(url + "/comments", [("body", "Meet at gate 2!")], from: url).status == .seeOther)
        #expect(people[3].post(url + "/comments", [("body", "let me in")], from: url).status == .forbidden)
        #expect(!people[3].get(url).bodyText.contains("Meet at gate 2!"))
        #expect(people[2].get(url).bodyText.contains("Meet at gate 2!"))

        // Mina cancels: Hana moves up and is told.
        people[1].post(url + "/cancel", [], from: url)
        #expect(people[3].get(url).bodyText.contains("You are going!"))
        #expect(people[3].get("/notifications").bodyText.contains("A place opened up"))
    }

    /// The list keeps each card once rendered: a signup, a cancellation, an edit and closing each
    /// show on the next view of the list, in English and in Korean.
    @Test func theListsKeptCardsFollowEveryChange() throws {
        let site = try TestSite()
        let people = site.members("hostess", "mina")
        let (hostess, mina) = (people[0], people[1])
        let url = try #require(host(hostess).headers["Location"])
        let korean = site.browser(language: "ko")
        let card = { (browser: Browser) -> String in
            let page = browser.get("/meetups").bodyText
            guard let start = page.range(of: "href=\"\(url)\"") else { return "" }
            return String(page[start.lowerBound...].prefix(1_200))
        }
        #expect(card(mina).contains("0/2 going") && card(korean).contains("Evening 5K"))
        mina.post(url + "/apply", [], from: url)
        #expect(card(mina).contains("1/2 going"))
        mina.post(url + "/cancel", [], from: url)
        #expect(card(mina).contains("0/2 going"))
        hostess.post(url + "/edit", [
            ("title", "Dawn 5K"), ("starts_at", LocalDateTime.text(Date().addingTimeInterval(3 * 86_400), .current)), ("duration", "60"),
            ("place_name", "Yeouido Park"), ("address", "Seoul, Yeouido"), ("latitude", "37.5283"), ("longitude", "126.9327"),
            ("time_slot", "afterWork"), ("pace", "fast"), ("style", "run"), ("capacity", "2"), ("signup_mode", "firstCome"), ("gender_rule", "any"),
        ], from: url + "/edit")
        #expect(card(mina).contains("Dawn 5K") && !card(mina).contains("Evening 5K") && card(korean).contains("Dawn 5K"))
        #expect(hostess.post(url + "/close", [], from: url).status == .seeOther)
        #expect(card(mina).contains("closed"))
    }

    @Test func theFiltersFoldAwayUnlessOneOfThemIsSet() throws {
        let site = try TestSite()
        let browser = site.browser()
        let plain = browser.get("/meetups").bodyText
        #expect(plain.contains("<details class=\"more-filters\">") && plain.contains("name=\"q\""))
        let filtered = browser.get("/meetups?pace=fast&min_km=5&max_km=inf&age=1e300").bodyText
        #expect(filtered.contains("<details class=\"more-filters\" open>") && filtered.contains("<span class=\"badge\">4</span>"))
        #expect(filtered.contains("<option value=\"fast\" selected>"))
    }

    @Test func rulesNeedAProfileAndTheHostsOwnGender() throws {
        let site = try TestSite()
        let people = site.members("hostess", "blank")
        // Without a gender in her profile, the host cannot limit to women.
        let refused = host(people[0], extra: [("gender_rule", "female")])
        #expect(refused.status == .unprocessableContent)
        #expect(refused.bodyText.contains("You can only limit a meetup to your own gender"))

        let url = try #require(host(people[0], extra: [("min_age", "20"), ("max_age", "40")]).headers["Location"])
        let apply = people[1].post(url + "/apply", [], from: url)
        #expect(apply.headers["Location"]?.hasPrefix("/settings") == true)
        #expect(people[1].get(url).bodyText.contains("Add your birth year to your profile to join."))

        people[1].post("/settings", [("display_name", "Blank"), ("birth_year", "1950")])
        #expect(people[1].post(url + "/apply", [], from: url).status == .forbidden)
    }

    @Test func theCalendarFileCarriesTheRightInstant() throws {
        let site = try TestSite()
        let people = site.members("hostess")
        let url = try #require(host(people[0], extra: [("title", "Long run; with, commas\\ and a very long title")]).headers["Location"])
        let id = try #require(Int64(url.split(separator: "/").last ?? ""))
        let meetup = try #require(try site.database.meetups.meetup(id: id))
        let response = people[0].get(url + ".ics")
        #expect(response.headers["Content-Type"] == "text/calendar; charset=utf-8")
        let text = response.bodyText
        #expect(text.hasSuffix("\r\n"))
        let physical = text.components(separatedBy: "\r\n").dropLast()
        #expect(physical.allSatisfy { $0.utf8.count <= 75 })
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        // Unfold (RFC 5545 §3.1) and read the properties.
        let lines = text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
        let property = { (name: String) in lines.first { $0.hasPrefix(name + ":") }.map { String($0.dropFirst(name.count + 1)) } }
        #expect(lines.first == "BEGIN:VCALENDAR" && lines.contains("END:VCALENDAR") && lines.contains("BEGIN:VEVENT"))
        #expect(property("DTSTART") == ICalendar.stamp(meetup.startsAt))
        #expect(property("SUMMARY") == "Long run\\; with\\, commas\\\\ and a very long title")
        #expect(property("SEQUENCE") == "0")
        #expect(property("GEO") == "37.5283;126.9327")
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        formatter.timeZone = TimeZone(identifier: "UTC")
        #expect(formatter.date(from: property("DTSTART") ?? "") == meetup.startsAt)
    }

    @Test func calendarFilesUseTheConfiguredAddressWhateverHostTheyWereFetchedBy() throws {
        var configuration = TestSite.configuration()
        configuration.baseURL = PublicURL("https://Run.Example.org/")
        let site = try TestSite(configuration: configuration)
        let people = site.members("hostess")
        let url = try #require(host(people[0]).headers["Location"])
        let id = String(url.split(separator: "/").last ?? "")
        for name in ["127.0.0.1:38467", "moim.local"] {
            let text = people[0].get(url + ".ics", headers: [("Host", name)]).bodyText
            #expect(text.contains("UID:meetup-\(id)@run.example.org\r\n"))
            #expect(text.contains("URL:https://run.example.org/meetups/\(id)\r\n"))
        }
        #expect(people[0].get("/u/hostess/feed.atom", headers: [("Host", "moim.local")]).bodyText.contains("https://run.example.org/u/hostess"))
        #expect(PublicURL("ftp://run.example.org") == nil && PublicURL("https://run.example.org/moim") == nil && PublicURL("run.example.org") == nil)
        #expect(PublicURL("http://127.0.0.1:8080")?.origin == "http://127.0.0.1:8080")
    }

    @Test func aRunBeforeSunriseTellsPeopleToBringALightOnThePageAndTheForm() throws {
        var configuration = TestSite.configuration()
        configuration.timeZone = try #require(TimeZone(identifier: "Asia/Seoul"))
        let site = try TestSite(configuration: configuration)
        let hostess = site.members("hostess")[0]
        let day = LocalDateTime.text(Date().addingTimeInterval(3 * 86_400), configuration.timeZone).prefix(10)
        // 04:30 in Seoul is before sunrise all year; noon is not.
        let dawn = try #require(host(hostess, extra: [("starts_at", day + "T04:30")]).headers["Location"])
        let page = hostess.get(dawn).bodyText
        #expect(page.contains("<p class=\"daylight-note\" role=\"note\">It starts before sunrise ("))
        #expect(hostess.get(dawn + "/edit").bodyText.contains("It starts before sunrise ("))
        let noon = try #require(host(hostess, extra: [("starts_at", day + "T12:00"), ("duration", "60")]).headers["Location"])
        #expect(!hostess.get(noon).bodyText.contains("daylight-note"))
        // Without coordinates there is nothing to say.
        let nowhere = try #require(host(hostess, extra: [("starts_at", day + "T04:30"), ("latitude", ""), ("longitude", "")]).headers["Location"])
        #expect(!hostess.get(nowhere).bodyText.contains("daylight-note"))
    }

    @Test func aMoveOfMoreThanHalfAnHourAsksPeopleGoingToConfirmAndUnconfirmedPlacesGoToTheWaitlist() throws {
        let site = try TestSite()
        let people = site.members("hostess", "mina", "jun", "hana")
        let (hostess, mina, jun, hana) = (people[0], people[1], people[2], people[3])
        let start = Date().addingTimeInterval(3 * 86_400)
        let url = try #require(host(hostess, extra: [("starts_at", LocalDateTime.text(start, .current))]).headers["Location"])
        let meetupID = try #require(Int64(url.split(separator: "/").last ?? ""))
        for person in [mina, jun, hana] { person.post(url + "/apply", [], from: url) }  // two going, Hana waits
        let edit = { (moved: TimeInterval) in
            hostess.post(url + "/edit", [
                ("title", "Evening 5K, Han river"), ("starts_at", LocalDateTime.text(start.addingTimeInterval(moved), .current)),
                ("duration", "60"), ("place_name", "Yeouido Park"), ("address", "Seoul, Yeouido"), ("latitude", "37.5283"),
                ("longitude", "126.9327"), ("time_slot", "afterWork"), ("pace", "average"), ("style", "run"), ("capacity", "2"),
                ("signup_mode", "firstCome"), ("gender_rule", "any"),
            ], from: url + "/edit")
        }

        // 20 minutes later: people are told, nobody has to confirm.
        #expect(edit(20 * 60).status == .seeOther)
        #expect(!mina.get(url).bodyText.contains("confirm-banner"))

        // Two hours later: Mina and Jun must confirm; Hana, waiting, is not asked.
        #expect(edit(2 * 3_600).status == .seeOther)
        let asked = mina.get(url).bodyText
        #expect(asked.contains("The host moved this meetup.") && asked.contains("action=\"\(url)/confirm\""))
        #expect(mina.get("/notifications").bodyText.contains("Confirm your place on its page."))
        #expect(!hana.get(url).bodyText.contains("confirm-banner"))
        #expect(mina.post(url + "/confirm", [], from: url).status == .seeOther)
        #expect(!mina.get(url).bodyText.contains("confirm-banner"))
        #expect(mina.post(url + "/confirm", [], from: url).status == .forbidden)  // nothing left to confirm

        // A day later (the clock moved, not slept): Jun's place goes to Hana, and both are told.
        let later = Date().addingTimeInterval(Double(AppDatabase.confirmationWindow) + 60)
        #expect(throws: StorageError.forbidden) { try site.database.meetups.confirmPlace(meetupID: meetupID, userID: try #require(try site.database.accounts.user(username: "jun")?.id), now: later) }
        // Two sweeps racing: each expired place is handled once.
        let expired = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let count = (try? site.database.meetups.expireConfirmations(now: later)) ?? 0
            expired.withLock { $0 += count }
        }
        #expect(expired.withLock { $0 } == 1)
        #expect(jun.get("/notifications").bodyText.contains("You did not confirm your place in time"))
        #expect(hana.get("/notifications").bodyText.contains("A place opened up"))
        let page = mina.get(url).bodyText
        #expect(page.contains("2/2 going") && !page.contains("waitlist: 1"))
        #expect(jun.get(url).bodyText.contains("action=\"\(url)/apply\""))  // Jun may apply again
    }

    @Test func aLotteryDrawsOnceAtTheDeadlineInAnOrderAnyoneCanRecompute() throws {
        let site = try TestSite()
        let people = site.members("hostess", "mina", "jun", "hana", "sora")
        let hostess = people[0], entrants = Array(people[1...])
        let now = Date()
        let deadline = LocalDateTime.text(now.addingTimeInterval(2 * 86_400), .current)
        #expect(host(hostess, extra: [("signup_mode", "lottery"), ("deadline", "")]).bodyText.contains("Choose when the draw happens"))
        let url = try #require(host(hostess, extra: [("signup_mode", "lottery"), ("capacity", "2"), ("deadline", deadline)]).headers["Location"])
        for person in entrants { #expect(person.post(url + "/apply", [], from: url).status == .seeOther) }

        // Before the draw: everyone is in it, the commitment is shown, the seed is not.
        let before = entrants[0].get(url).bodyText
        #expect(before.contains("You are in the draw."))
        let commitment = try #require(before.firstMatch(of: /<code class="hash">([0-9a-f]{64})<\/code>/)?.1)
        #expect(!hostess.get(url).bodyText.contains("/applications/mina/accept"))  // nothing for the host to decide

        // Past the deadline, two sweeps race: one draw.
        let later = now.addingTimeInterval(2 * 86_400 + 60)
        let draws = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let drawn = (try? site.database.meetups.drawLotteries(now: later, rank: Lottery.rank).count) ?? 0
            draws.withLock { $0 += drawn }
        }
        #expect(draws.withLock { $0 } == 1)
        #expect(try site.database.meetups.drawLotteries(now: later.addingTimeInterval(3_600), rank: Lottery.rank).isEmpty)

        // The seed is revealed; it matches the commitment, and the order follows the rule.
        let after = hostess.get(url).bodyText
        let codes = after.matches(of: /<code class="hash">([^<]+)<\/code>/).map { String($0.1) }
        #expect(codes.count == 2 && codes[0] == String(commitment))
        let seed = codes[1]
        #expect(Lottery.rank(seed) == String(commitment))
        let expected = ["mina", "jun", "hana", "sora"].sorted { Lottery.rank(seed + ":" + $0) < Lottery.rank(seed + ":" + $1) }
        let shown = after.matches(of: /<li(?: class="won")?>@([a-z]+)<\/li>/).map { String($0.1) }
        #expect(shown == expected)
        #expect(after.contains("2/2 going") && after.contains("waitlist: 2"))
        // Everyone hears the result: the first two won, the others know their place in line.
        let browsers = Dictionary(uniqueKeysWithValues: zip(["mina", "jun", "hana", "sora"], entrants))
        #expect(try #require(browsers[expected[0]]).get("/notifications").bodyText.contains("You won a place"))
        #expect(try #require(browsers[expected[3]]).get("/notifications").bodyText.contains("you are number 2 on the waitlist"))
        // And the way places are given can no longer change.
        let edit = hostess.post(url + "/edit", [
            ("title", "Evening 5K, Han river"), ("starts_at", LocalDateTime.text(now.addingTimeInterval(3 * 86_400), .current)),
            ("duration", "60"), ("place_name", "Yeouido Park"), ("time_slot", "afterWork"), ("pace", "average"), ("style", "run"),
            ("capacity", "2"), ("signup_mode", "firstCome"), ("gender_rule", "any"),
        ], from: url + "/edit")
        #expect(edit.status == .unprocessableContent && edit.bodyText.contains("the way places are given cannot change now"))
    }

    @Test func aDrawThatFellDueWhileTheServerWasDownHappensAtTheFirstSweep() throws {
        let site = try TestSite()
        let people = site.members("hostess", "mina")
        let url = try #require(host(people[0], extra: [
            ("signup_mode", "lottery"), ("deadline", LocalDateTime.text(Date().addingTimeInterval(86_400), .current)),
        ]).headers["Location"])
        people[1].post(url + "/apply", [], from: url)
        try site.app.sweep(now: Date().addingTimeInterval(5 * 86_400 / 2))
        #expect(people[1].get("/notifications").bodyText.contains("You won a place"))
    }

    @Test func peopleGoingCheckThemselvesInWithTheHostsCodeAndFiveWrongCodesLockThem() throws {
        let site = try TestSite()
        let people = site.members("hostess", "mina", "jun", "hana")
        let (hostess, mina, jun, hana) = (people[0], people[1], people[2], people[3])
        let url = try #require(host(hostess, extra: [("capacity", "5")]).headers["Location"])
        let meetupID = try #require(Int64(url.split(separator: "/").last ?? ""))
        for person in [mina, jun, hana] { person.post(url + "/apply", [], from: url) }
        #expect(mina.post(url + "/checkin", [("code", "123456")], from: url).status == .conflict)  // days before: not open

        // Ten minutes before the start: the host sees the code and its QR code.
        try site.database.moveMeetup(id: meetupID, startsAt: Date().addingTimeInterval(600), deadline: Date().addingTimeInterval(500))
        let hostPage = hostess.get(url).bodyText
        let code = String(try #require(hostPage.firstMatch(of: /<p class="checkin-code">([0-9]{6})<\/p>/)?.1))
        #expect(hostPage.contains("<svg class=\"qr\"") && hostPage.contains("<path d=\"M4 4h1v1h-1z"))
        let wrong = code == "000000" ? "111111" : "000000"

        // Mina: four wrong codes say how many tries are left; the fifth locks her, even with the right code after.
        for left in [4, 3, 2, 1] {
            let answer = mina.post(url + "/checkin", [("code", wrong)], from: url)
            #expect(answer.status == .unprocessableContent && answer.bodyText.contains(left == 1 ? "1 try left" : "\(left) tries left"))
        }
        #expect(mina.post(url + "/checkin", [("code", wrong)], from: url).status == .forbidden)
        #expect(mina.post(url + "/checkin", [("code", code)], from: url).status == .forbidden)

        // Jun guesses in parallel: still five at most.
        let junID = try #require(try site.database.accounts.user(username: "jun")?.id)
        DispatchQueue.concurrentPerform(iterations: 12) { index in
            _ = try? site.database.meetups.checkIn(meetupID: meetupID, userID: junID, code: String(format: "%06d", (Int(code) ?? 0) + index + 1))
        }
        #expect(try site.database.meetups.checkIn(meetupID: meetupID, userID: junID, code: code) == .locked)
        #expect(try site.database.checkInFailures(meetupID: meetupID, userID: junID) == 5)

        // Hana follows the QR code's link: the code is filled in, and she is present.
        #expect(hana.get(url + "?code=" + code).bodyText.contains("value=\"\(code)\""))
        #expect(hana.post(url + "/checkin", [("code", code)], from: url).status == .seeOther)
        #expect(hana.get(url).bodyText.contains("You are checked in."))
        let hanaID = try #require(try site.database.accounts.user(username: "hana")?.id)
        #expect(try site.database.meetups.attendance(userID: hanaID) == (attended: 1, recorded: 1))
        // Someone not going cannot.
        let outsider = site.members("outsider")[0]
        #expect(outsider.post(url + "/checkin", [("code", code)], from: url).status == .forbidden)
    }

    @Test func paceGroupsEachHoldTheirPlacesAndWaitlistUnderARush() throws {
        let site = try TestSite()
        // Ten sign-ups: the most one address may make in an hour.
        let names = ["hostess", "mina"] + (1...8).map { "runner\($0)" }
        let people = site.members(names[0], names[1], names[2], names[3], names[4], names[5], names[6], names[7], names[8], names[9])
        let url = try #require(host(people[0], extra: [("capacity", "99"), ("groups", "5:00 /km, 2, mina\n6:00 /km, 1")]).headers["Location"])
        let meetupID = try #require(Int64(url.split(separator: "/").last ?? ""))
        let groups = try site.database.meetups.paceGroups(meetupID: meetupID)
        #expect(groups.map(\.label) == ["5:00 /km", "6:00 /km"] && groups.map(\.capacity) == [2, 1])
        #expect(try site.database.meetups.meetup(id: meetupID)?.capacity == 3)  // the groups' places, not the 99 typed
        let page = people[1].get(url).bodyText
        #expect(page.contains("<strong>5:00 /km</strong> · led by <a href=\"/u/mina\">") && page.contains("2 places left"))
        #expect(people[1].post(url + "/apply", [], from: url).bodyText.contains("Choose a pace group."))

        // Eight people rush the one place at 6:00: exactly one gets it, the others wait for that group.
        let slow = try #require(groups[1].id), fast = try #require(groups[0].id)
        let ids = try names[2...].map { try #require(try site.database.accounts.user(username: $0)?.id) }
        DispatchQueue.concurrentPerform(iterations: ids.count) { index in
            _ = try? site.database.meetups.apply(meetupID: meetupID, userID: ids[index], groupID: slow)
        }
        let afterRush = try site.database.meetups.participants(meetupID: meetupID)
        #expect(afterRush.filter { $0.status == .accepted }.count == 1 && afterRush.filter { $0.status == .waitlisted }.count == 7)
        #expect(try site.database.meetups.paceGroups(meetupID: meetupID).map(\.acceptedCount) == [0, 1])

        // The 5:00 group still has its places; a place given up at 6:00 goes to the first waiting there.
        #expect(people[1].post(url + "/apply", [("group", String(fast))], from: url).status == .seeOther)
        let first = try #require(afterRush.first { $0.status == .accepted }?.user.id)
        let next = try #require(afterRush.first { $0.status == .waitlisted }?.user.id)
        try site.database.meetups.cancelApplication(meetupID: meetupID, userID: first)
        let afterCancel = try site.database.meetups.participants(meetupID: meetupID)
        #expect(afterCancel.first { $0.user.id == next }?.status == .accepted)
        #expect(try site.database.meetups.paceGroups(meetupID: meetupID).map(\.acceptedCount) == [1, 1])

        // People have applied: the groups stay as they are.
        let edit = people[0].post(url + "/edit", [
            ("title", "Evening 5K, Han river"), ("starts_at", LocalDateTime.text(Date().addingTimeInterval(3 * 86_400), .current)),
            ("duration", "60"), ("place_name", "Yeouido Park"), ("address", "Seoul, Yeouido"), ("latitude", "37.5283"),
            ("longitude", "126.9327"), ("time_slot", "afterWork"), ("pace", "average"), ("style", "run"), ("capacity", "3"),
            ("signup_mode", "firstCome"), ("gender_rule", "any"), ("groups", "5:00 /km, 5"),
        ], from: url + "/edit")
        #expect(edit.status == .unprocessableContent && edit.bodyText.contains("the pace groups cannot change now"))
        #expect(host(people[0], extra: [("groups", "fast")]).bodyText.contains("at most eight"))
        #expect(host(people[0], extra: [("groups", "fast, 3, nobody_here")]).bodyText.contains("must be a member"))
    }

    @Test func editingTheTimeNotifiesPeopleGoing() throws {
        let site = try TestSite()
        let people = site.members("hostess", "mina")
        let url = try #require(host(people[0]).headers["Location"])
        people[1].post(url + "/apply", [], from: url)
        let later = LocalDateTime.text(Date().addingTimeInterval(4 * 86_400), .current)
        let edit = people[0].post(url + "/edit", [
            ("title", "Evening 5K, Han river"), ("starts_at", later), ("duration", "60"), ("place_name", "Banpo Bridge"),
            ("time_slot", "afterWork"), ("pace", "average"), ("style", "run"), ("capacity", "2"), ("signup_mode", "firstCome"),
            ("gender_rule", "any"),
        ], from: url + "/edit")
        #expect(edit.status == .seeOther)
        #expect(people[1].get("/notifications").bodyText.contains("Banpo Bridge"))
        #expect(people[1].get(url + ".ics").bodyText.contains("SEQUENCE:1"))
        #expect(people[1].post(url + "/edit", [("title", "hijack")], from: url).status == .forbidden)
    }
}
