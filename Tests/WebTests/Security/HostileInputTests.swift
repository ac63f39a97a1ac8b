import Foundation
import Testing
import HTTP
import Storage
import TestSupport
@testable import Web

/// Every reproduction from the attack report, sent through the real server: each gets a clear
/// answer, and the server is still up afterwards.
@Suite(.serialized) struct HostileInputTests {
    @Test(arguments: ["1e300", "inf", "nan", "-1e300", "1e16", "NaN", "0x1p1023", "9223372036854775807"])
    func absurdDistancesAreAFieldError(distance: String) throws {
        let live = try LiveSite()
        let answer = try live.post("/records", [("started_at", "2026-11-01T07:00"), ("distance", distance), ("duration", "45:30"), ("visibility", "public")])
        #expect(answer.statusCode == 422)
        #expect(live.isUp)
    }

    @Test(arguments: ["9223372036854775807:59:59", "99999999999999999999", "1:99:00", "-5:00", "5::00", "1:2:3:4"])
    func absurdDurationsAreAFieldError(duration: String) throws {
        let live = try LiveSite()
        let answer = try live.post("/records", [("started_at", "2026-11-01T07:00"), ("distance", "10"), ("duration", duration), ("visibility", "public")])
        #expect(answer.statusCode == 422)
        #expect(live.isUp)
    }

    @Test func aClimbThatIsNotANumberIsAFieldErrorNotZero() throws {
        let live = try LiveSite()
        let answer = try live.post("/records", [("started_at", "2026-11-01T07:00"), ("distance", "10"), ("duration", "50:00"),
                                                ("elevation", "12abc"), ("visibility", "public")])
        #expect(answer.statusCode == 422)
        #expect(try live.site.database.records.records(userID: 1, from: .distantPast, to: .distantFuture, viewerID: 1).isEmpty)
    }

    @Test(arguments: ["1e19", "inf", "1e39", "-1e39", "nan"])
    func aGPXWithAbsurdElevationsSavesARouteEveryoneCanOpen(elevation: String) throws {
        let live = try LiveSite()
        let gpx = String(decoding: gpxFixture(steps: 40), as: UTF8.self)
            .replacingOccurrences(of: #"<ele>\d+</ele>"#, with: "<ele>\(elevation)</ele>", options: .regularExpression)
        let saved = try live.post("/records", [("visibility", "public")], file: ("gpx", "run.gpx", Array(gpx.utf8)))
        #expect(saved.statusCode == 303)
        let location = try #require(saved.header("Location"))
        let page = try live.get(location)
        #expect(page.statusCode == 200)
        #expect(page.contains("<polyline"))
        #expect(live.isUp)
    }

    @Test func aStoredTrackOfInfinitiesStillRenders() throws {
        let live = try LiveSite()
        var poison = Data()
        for value: Float in [37.5, 126.9, .infinity, .nan, 126.9, 1e38, 37.6, 127.0, -.infinity, 37.7, 127.1, .nan] {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { poison.append(contentsOf: $0) }
        }
        let record = try live.site.database.records.createRecord(RunRecord(
            userID: 1, startedAt: Date(), distanceMeters: 5000, durationSeconds: 1800, elevationGain: 0, note: "", noteHTML: "",
            visibility: .public, meetupID: nil, track: poison))
        let page = try live.get(Paths.record(try #require(record.id)))
        #expect(page.statusCode == 200)
        #expect(live.isUp)
    }

    @Test func aUTF16GPXCannotSmuggleADoctype() throws {
        let live = try LiveSite()
        let xml = #"<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE gpx [<!ENTITY a "aaaa">]><gpx><trk><trkseg>"#
            + #"<trkpt lat="1" lon="1"><name>&a;</name></trkpt><trkpt lat="1.01" lon="1"/></trkseg></trk></gpx>"#
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in xml.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let answer = try live.post("/records", [("visibility", "public"), ("started_at", "2026-11-01T07:00")], file: ("gpx", "run.gpx", utf16))
        #expect(answer.statusCode == 422)
        #expect(live.isUp)
    }

    // Found by the gpx fuzz target: invalid UTF-8 in an attribute made Foundation's XMLParser trap.
    @Test func aGPXWithInvalidUTF8IsRefused() throws {
        let live = try LiveSite()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestSite.root + "/Tests/WebTests/Fixtures/invalid-utf8-attribute.gpx")))
        let answer = try live.post("/records", [("visibility", "public"), ("started_at", "2026-11-01T07:00")], file: ("gpx", "run.gpx", bytes))
        #expect(answer.statusCode == 422)
        #expect(live.isUp)
    }

    @Test(arguments: ["/%09/evil.test", "/%0A/evil.test", "/%5Cevil.test", "//evil.test", "/%20/evil.test", "https://evil.test", "//%CD%95evil.test"])
    func returnAddressesNeverLeaveTheSite(target: String) throws {
        let live = try LiveSite()
        let answer = try live.post("/language", [("language", "ko"), ("return_to", target.removingPercentEncoding ?? target)])
        #expect(answer.statusCode == 303)
        #expect(answer.header("Location") == "/")
        let login = try live.get("/login?next=" + target)
        #expect(login.contains(#"name="next" value="/""#))
    }

    @Test(arguments: [
        ("/meetups?near=1e999,nan&radius=-1", 200), ("/meetups?near=91,181&radius=99999999999999999999", 200),
        ("/crews?near=%00,%00&radius=3", 200), ("/meetups?map=17/37.5/126.9&at.x=1e9&at.y=nan", 200),
        ("/meetups?view=map&map=" + String(repeating: "9", count: 2_000), 200), ("/tiles/99999999999999999999/0/0", 404),
        ("/tiles/19/524288/0", 404), ("/near?to=meetups", 404), ("/auth/oidc", 404),
        ("/auth/oidc/callback?state=" + String(repeating: "s", count: 5_000) + "&code=x", 404),
    ])
    func mapAndSignInAddressesNeverTrap(target: String, status: Int) throws {
        let live = try LiveSite()
        #expect(try live.get(target).statusCode == status)
        // A tap far outside the picker on the meetup form is a plain submission, checked as one.
        let form = try live.post("/meetups", [("map", "17/37.5/126.9"), ("pick.x", "-99999999999999999999"), ("pick.y", "1e400"), ("title", "")])
        #expect(form.statusCode == 422)
        #expect(live.isUp)
    }

    @Test(arguments: ["", "\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}", "99999999999999999999", "1e400", "１２３４５６", "12345\u{0}",
                      String(repeating: "1", count: 100_000), "123456"])
    func workplaceCodesNeverTrapAndNeverVerifyWithoutACode(code: String) throws {
        let live = try LiveSite()
        let answer = try live.post("/settings/workplace/confirm", [("work_code", code), ("next", "//evil.test/%0D%0A")])
        #expect(answer.statusCode == 422)
        #expect(try live.site.database.accounts.user(username: "hostile")?.workplaceDomain == nil)
        // Without a mail server there is no code to ask for; the list filter takes anything.
        #expect(try live.post("/settings/workplace", [("work_email", "a@\u{0}.kr")]).statusCode == 404)
        #expect(try live.get("/meetups?workplace=%00%FF").statusCode == 200)
        #expect(live.isUp)
    }

    @Test(arguments: ["/search?q=ab%00", "/search?q=%00%00%00", "/crews?q=abc%00", "/search?q=%22%00OR%01", "/meetups?q=%00a%25",
                      "/search/suggest?q=%00%00", "/search/suggest?q=%FF%FE", "/search/suggest?q=%25_%5C", "/search/suggest?q=%01%02ab",
                      "/search/suggest?q=" + String(repeating: "%EA%B0%80", count: 500), "/search?q=%EA%B0%80%01"])
    func searchesWithControlCharactersAnswer200(target: String) throws {
        let live = try LiveSite()
        #expect(try live.get(target).statusCode == 200)
        #expect(live.isUp)
    }

    @Test(arguments: [String(repeating: ">\u{200D}", count: 6000), "a" + String(repeating: "\u{301}", count: 400),
                      "Mina\u{202E}nimda", "Mi\u{200B}na", "\u{2066}admin\u{2069}"])
    func namesThatAreLongInCodePointsOrSpoofAre422(name: String) throws {
        let live = try LiveSite()
        let answer = try live.post("/settings", [("display_name", name), ("bio", "")])
        #expect(answer.statusCode == 422)
        #expect(try live.site.database.accounts.user(username: "hostile")?.displayName == "Mina Kim")
        #expect(live.isUp)
    }

    @Test(arguments: [
        ("/password/reset/" + String(repeating: "A", count: 43), 404), ("/password/reset/%00%0D%0A", 404),
        ("/password/reset/" + String(repeating: "x", count: 4_000), 404), ("/email/verify/..%2F..%2Fetc", 404),
        ("/email/verify/" + String(repeating: "_", count: 43), 404), ("/unsubscribe/%27%20OR%201%3D1--?list=digest", 404),
        ("/unsubscribe/" + String(repeating: "0", count: 48) + "?list=%00", 404), ("/password/forgot?login=%00", 200),
    ])
    func mailLinksThatAreNotOursAreNotFound(target: String, status: Int) throws {
        let live = try LiveSite()
        #expect(try live.get(target).statusCode == status)
        #expect(live.isUp)
    }

    @Test func aForgedOneClickUnsubscribeChangesNothing() throws {
        let live = try LiveSite()
        let body = "List-Unsubscribe=One-Click"
        for token in ["%00", String(repeating: "f", count: 48), String(repeating: "%E2%80%AE", count: 20)] {
            let answer = try live.send("POST /unsubscribe/\(token)?list=notices HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
            #expect(answer.statusCode == 404)
        }
        #expect(try live.site.database.mail.mailSettings(userID: 1).meetupNotices)
        #expect(live.isUp)
    }

    @Test func aBodylessPostIsRefusedAsAForgeryNotAsAMediaType() throws {
        let live = try LiveSite()
        let answer = try live.send("POST /posts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        #expect(answer.statusCode == 403)
    }
}

@Suite struct HostileOutputTests {
    @Test func thePublicLogDoesNotRepublishWhatWasRemoved() throws {
        let site = try TestSite()
        let people = site.members("author", "boss")
        _ = try site.database.accounts.setRole(.admin, username: "boss")
        people[1].logIn("boss")
        let url = try #require(people[0].post("/posts", [("body", "my secret phone number is 010-1234")], from: "/posts/new").headers["Location"])
        let id = String(url.split(separator: "/").last ?? "")
        people[1].post("/admin/moderate", [("action", "hide"), ("target_type", "post"), ("target_id", id), ("reason", "privacy")], from: "/admin/reports")
        let publicLog = site.browser().get("/moderation").bodyText
        #expect(publicLog.contains("privacy"))
        #expect(!publicLog.contains("010-1234"))
        #expect(people[1].get("/admin/log").bodyText.contains("010-1234"))
    }

    @Test func usernameAndEmailShareOneLoginLimit() throws {
        let site = try TestSite()
        _ = site.members("mina")
        let attacker = site.browser(address: "10.0.0.9")
        for attempt in 0..<5 { attacker.logIn(attempt % 2 == 0 ? "mina" : "MINA@example.com", "wrong password 123") }
        #expect(attacker.logIn("mina@example.com", "wrong password 123").status == .tooManyRequests)
    }

    @Test func anIPv6SubnetIsCountedAsOneClient() throws {
        let site = try TestSite()
        _ = site.members("mina")
        for host in 1...20 { site.browser(address: "2001:db8:5:7::\(String(host, radix: 16))").logIn("nobody\(host)", "wrong password 123") }
        #expect(site.browser(address: "2001:db8:5:7:ffff::1").logIn("mina").status == .tooManyRequests)
        #expect(site.browser(address: "2001:db8:5:8::1").logIn("mina").status == .seeOther)
        #expect(AddressKey.of("::ffff:192.0.2.7") == "192.0.2.7")
        #expect(AddressKey.of("2001:db8:5:7::9") == "2001:0db8:0005:0007::/64")
    }
}
