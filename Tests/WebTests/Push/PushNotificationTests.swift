import Foundation
import HTTP
import Network
@testable import Storage
import Testing
import TestSupport
@testable import Web

/// Notifications pushed to a member's devices through a push service on loopback that checks
/// the VAPID token and decrypts each message, as real ones do.
@Suite(.serialized) struct PushNotificationTests {
    let service: TestPushService
    let site: TestSite

    init() throws {
        service = try TestPushService()
        var configuration = TestSite.configuration()
        configuration.baseURL = PublicURL("http://moim.test")
        var push = PushConfiguration(subject: "mailto:admin@moim.test")
        push.allowedHosts = ["127.0.0.1"]
        push.timeout = 2
        configuration.push = push
        site = try TestSite(configuration: configuration)
    }

    /// Turns notifications on in `browser` for a new browser subscription at the push service.
    @discardableResult
    private func turnOn(_ browser: Browser, name: String = "") throws -> (endpoint: String, p256dh: String, auth: String) {
        let subscription = try service.subscribe()
        let answer = browser.post("/settings/notifications/devices", [
            ("endpoint", subscription.endpoint), ("p256dh", subscription.p256dh), ("auth", subscription.auth), ("name", name),
        ], from: "/settings/notifications")
        #expect(answer.status == .seeOther)
        return subscription
    }

    @Test func aDeviceRemovedInSettingsIsNoLongerListed() throws {
        let mina = site.browser()
        mina.signUp(username: "mina")
        try turnOn(mina, name: "Phone")
        let remove = try #require(mina.get("/settings/notifications").bodyText.firstMatch(of: /action="(\/settings\/notifications\/devices\/\d+\/remove)"/)?.1)
        // Another member cannot remove it
        let jun = site.browser()
        jun.signUp(username: "jun")
        jun.post(String(remove), [], from: "/settings/notifications")
        #expect(mina.get("/settings/notifications").bodyText.contains(String(remove)))
        // Its owner can
        #expect(mina.post(String(remove), [], from: "/settings/notifications").headers["Location"] == "/settings/notifications")
        #expect(!mina.get("/settings/notifications").bodyText.contains(String(remove)))
    }

    private func hostMeetup(_ browser: Browser) -> String {
        let local = LocalDateTime.text(Date().addingTimeInterval(3 * 86_400), .current)
        let fields = [
            ("title", "Dawn 10K"), ("description", "Steady."), ("starts_at", local), ("duration", "60"), ("place_name", "Yeouido Park"),
            ("address", "Seoul"), ("latitude", ""), ("longitude", ""), ("place_note", ""), ("region", "seoul"), ("time_slot", "weekend"),
            ("distance", "10"), ("pace", "average"), ("style", "run"), ("capacity", "5"), ("signup_mode", "approval"), ("deadline", ""),
            ("gender_rule", "any"),
        ]
        return browser.post("/meetups", fields, from: "/meetups/new").headers["Location"] ?? ""
    }

    private func userID(_ username: String) throws -> Int64 {
        try #require(try site.database.accounts.user(username: username)).storedID
    }

    private func payloads() throws -> [[String: Any]] {
        try service.messages().delivered.compactMap { message in
            guard let text = message["payload"] as? String, var json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return nil }
            json["topic"] = message["topic"]
            json["urgency"] = message["urgency"]
            json["ttl"] = message["ttl"]
            return json
        }
    }

    @Test func anAcceptanceAndTalkReachTheDeviceEncryptedAndSigned() throws {
        let (host, mina) = { let b = site.members("host", "mina"); return (b[0], b[1]) }()
        let settings = mina.get("/settings/notifications").bodyText
        #expect(settings.contains("Turn on notifications here") && settings.contains("data-key=\"\(site.app.pushSender?.publicKey ?? "?")\""))
        try turnOn(mina, name: "Pixel 8")
        #expect(mina.get("/settings/notifications").bodyText.contains("Pixel 8"))

        let meetup = hostMeetup(host)
        #expect(mina.post(meetup + "/apply", [], from: meetup).status == .seeOther)
        #expect(host.post(meetup + "/applications/mina/accept", [], from: meetup).status == .seeOther)
        host.post(meetup + "/comments", [("body", "Gate 2 at 6:30 — 🏃")], from: meetup)
        let tally = try site.app.runPush()
        #expect(tally.delivered == 2)
        let (_, refused) = try service.messages()
        #expect(refused.isEmpty, "\(refused)")
        let messages = try payloads()
        let accepted = try #require(messages.first { ($0["url"] as? String) == meetup })
        #expect((accepted["body"] as? String)?.contains("accepted") == true && accepted["urgency"] as? String == "high")
        // The site's name as the title, never its host; the meetup named in the body
        #expect(accepted["title"] as? String == "Moim" && (accepted["body"] as? String)?.contains("Dawn 10K") == true)
        let talk = try #require(messages.first { $0["topic"] is String })
        #expect(talk["title"] as? String == "Moim" && (talk["body"] as? String)?.hasSuffix(" · Dawn 10K: Gate 2 at 6:30 — 🏃") == true)
        #expect((talk["topic"] as? String)?.hasPrefix("room-") == true && talk["urgency"] as? String == "normal")
        #expect(try site.app.runPush().delivered == 0, "sent once")
        #expect(mina.get("/settings/notifications").bodyText.contains("last used"))
    }

    @Test func aCancelledMeetupReachesTheLockScreenWithTheHostsReason() throws {
        let (host, mina) = { let b = site.members("host", "mina"); return (b[0], b[1]) }()
        let meetup = hostMeetup(host)
        mina.post(meetup + "/apply", [], from: meetup)
        try turnOn(mina)
        #expect(host.post(meetup + "/call-off", [("reason", "Typhoon warning")], from: meetup + "/call-off").status == .seeOther)
        #expect(try site.app.runPush().delivered == 1)
        let pushed = try #require(try payloads().first)
        #expect(pushed["url"] as? String == meetup)
        #expect((pushed["body"] as? String)?.contains("cancelled a meetup you signed up for: Typhoon warning") == true)
    }

    @Test func aReminderReachesTheLockScreenAndCanBeTurnedOff() throws {
        let (host, mina) = { let b = site.members("host", "mina"); return (b[0], b[1]) }()
        let meetup = hostMeetup(host)
        mina.post(meetup + "/apply", [], from: meetup)
        host.post(meetup + "/applications/mina/accept", [], from: meetup)
        try turnOn(mina)
        // It starts in 20 hours (the push service takes tokens made now, not in a simulated future)
        let id = try #require(Int64(meetup.split(separator: "/").last ?? ""))
        let startsAt = Date().addingTimeInterval(20 * 3_600)
        try site.database.write { db in try db.execute("UPDATE meetups SET startsAt = ?, deadline = ? WHERE id = ?", [startsAt, startsAt, id]) }
        try site.app.sweep()
        #expect(try site.app.runPush().delivered == 1)
        let pushed = try #require(try payloads().first)
        #expect(pushed["url"] as? String == meetup)
        #expect((pushed["body"] as? String)?.hasPrefix("Coming up: Dawn 10K, ") == true && (pushed["body"] as? String)?.contains("\n") == false)
        // Without reminders among her kinds, the hour's reminder stays a notification
        let kinds = PushKind.allCases.filter { $0 != .reminders }.map { ("kind", $0.rawValue) }
        #expect(mina.post("/settings/notifications", kinds, from: "/settings/notifications").status == .seeOther)
        try site.database.write { db in try db.execute("UPDATE meetups SET startsAt = ? WHERE id = ?", [Date().addingTimeInterval(30 * 60), id]) }
        try site.app.sweep()
        #expect(try site.app.runPush().delivered == 0)
        #expect(mina.get("/notifications").bodyText.contains("Starting within the hour: Dawn 10K"))
    }

    @Test func aDirectMessageReachesTheLockScreenSayingWhoAndAMutedRoomStaysQuietButForAMention() throws {
        let mina = site.browser(), jun = site.browser()
        mina.signUp(username: "mina", displayName: "민지")
        jun.signUp(username: "jun", displayName: "Jun")
        try turnOn(jun, name: "Phone")
        jun.post("/u/mina/follow", [], from: "/u/mina")  // so hers goes straight to his inbox
        let room = try #require(mina.post("/u/jun/talk", [], from: "/u/jun").headers["Location"]?.split(separator: "#").first.map(String.init))
        mina.post(room, [("body", "내일 7시 맞죠?")], from: room)
        #expect(try site.app.runPush().delivered == 1)
        let push = try #require(try payloads().last)
        #expect(push["title"] as? String == "Moim" && push["body"] as? String == "민지: 내일 7시 맞죠?")
        #expect(push["url"] as? String == room && push["topic"] as? String == "room-" + (room.split(separator: "/").last.map(String.init) ?? ""))
        #expect(push["urgency"] as? String == "high")
        // Muted for a day: nothing more
        jun.post(room + "/mute", [("for", "day")], from: room)
        mina.post(room, [("body", "?")], from: room)
        #expect(try site.app.runPush().delivered == 0)
        // But a message that mentions him still reaches him
        mina.post(room, [("body", "@jun 답 좀 해 줘요")], from: room)
        #expect(try site.app.runPush().delivered == 1)
        #expect(try payloads().last?["body"] as? String == "민지: @jun 답 좀 해 줘요")
    }

    @Test func aGoneDeviceIsDroppedAndUnwantedKindsAreNotPushed() throws {
        let (host, mina) = { let b = site.members("host", "mina"); return (b[0], b[1]) }()
        let device = try turnOn(mina)
        // Mina wants no pushes for new followers.
        let kinds = PushKind.allCases.filter { $0 != .follows }.map { ("kind", $0.rawValue) }
        #expect(mina.post("/settings/notifications", kinds, from: "/settings/notifications").status == .seeOther)
        host.post("/u/mina/follow", [], from: "/u/mina")
        #expect(try site.app.runPush() == PushSender.Delivery())

        // Her browser is gone: the push service answers 410, and the device goes.
        try service.mode(device.endpoint, "410")
        let meetup = hostMeetup(host)
        mina.post(meetup + "/apply", [], from: meetup)
        host.post(meetup + "/applications/mina/accept", [], from: meetup)
        #expect(try site.app.runPush().gone == 1)
        #expect(try site.database.push.pushDevices(userID: try userID("mina"), sessionID: nil).isEmpty)
    }

    @Test func aThrottledServiceIsAskedAgainLaterAndAHangingOneHoldsNothingElse() throws {
        let (host, mina, jun) = { let b = site.members("host", "mina", "jun"); return (b[0], b[1], b[2]) }()
        let slow = try turnOn(mina)
        try turnOn(jun)
        try service.mode(slow.endpoint, "hang")
        host.post("/u/mina/follow", [], from: "/u/mina")
        host.post("/u/jun/follow", [], from: "/u/jun")
        let started = Date()
        let tally = try site.app.runPush()
        #expect(tally.delivered == 1 && tally.deferred == 1)
        #expect(Date().timeIntervalSince(started) < 10, "the hanging service held the pass only for its timeout")
        try service.mode(slow.endpoint, "429")
        #expect(try site.app.runPush(now: Date().addingTimeInterval(30)) == PushSender.Delivery(), "not due yet")
        #expect(try site.app.runPush(now: Date().addingTimeInterval(120)).deferred == 1, "429: later again")
    }

    @Test func badSubscriptionsAreRefusedAndADeviceBelongsToOneSession() throws {
        let (mina, jun) = { let b = site.members("mina", "jun"); return (b[0], b[1]) }()
        let good = try service.subscribe()
        for (endpoint, p256dh, auth) in [
            ("http://10.0.0.7/push/x", good.p256dh, good.auth), ("https://169.254.169.254/latest/meta-data", good.p256dh, good.auth),
            ("javascript:alert(1)", good.p256dh, good.auth), (good.endpoint, "BAAA", good.auth), (good.endpoint, good.p256dh, "short"),
            (good.endpoint, String(repeating: "A", count: 87), good.auth),
        ] {
            let answer = mina.post("/settings/notifications/devices", [("endpoint", endpoint), ("p256dh", p256dh), ("auth", auth)],
                                   from: "/settings/notifications")
            #expect(answer.status == .unprocessableContent, "\(endpoint.prefix(40)) \(p256dh.prefix(10)) \(auth)")
        }
        let minaID = try userID("mina")
        #expect(try site.database.push.pushDevices(userID: minaID, sessionID: nil).isEmpty)
        // Jun signs in on a browser Mina used: its endpoint becomes his, and none of hers goes there.
        mina.post("/settings/notifications/devices", [("endpoint", good.endpoint), ("p256dh", good.p256dh), ("auth", good.auth)], from: "/settings/notifications")
        jun.post("/settings/notifications/devices", [("endpoint", good.endpoint), ("p256dh", good.p256dh), ("auth", good.auth)], from: "/settings/notifications")
        let junID = try userID("jun")
        #expect(try site.database.push.pushDevices(userID: junID, sessionID: nil).count == 1)
        #expect(try site.database.push.pushDevices(userID: minaID, sessionID: nil).isEmpty, "taken over by the member signed in now")

        for _ in 0..<10 { try turnOn(mina) }
        let eleventh = try service.subscribe()
        #expect(mina.post("/settings/notifications/devices", [("endpoint", eleventh.endpoint), ("p256dh", eleventh.p256dh), ("auth", eleventh.auth)],
                          from: "/settings/notifications").status == .unprocessableContent)
        #expect(try site.database.push.pushDevices(userID: minaID, sessionID: nil).count == 10)
        // Signing out ends the session, and with it the session's devices.
        mina.logOut()
        #expect(try site.database.push.pushDevices(userID: minaID, sessionID: nil).isEmpty)
    }

    @Test func theSiteInstallsOnTheHomeScreen() throws {
        let browser = site.browser(language: "ko")
        let manifest = browser.get("/manifest.webmanifest")
        #expect(manifest.headers["Content-Type"]?.hasPrefix("application/manifest+json") == true)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(manifest.body)) as? [String: Any])
        #expect(json["display"] as? String == "standalone" && json["start_url"] as? String == "/" && (json["name"] as? String)?.contains("모임") == true)
        let icons = try #require(json["icons"] as? [[String: String]])
        #expect(Set(icons.map { $0["sizes"] ?? "" }) == ["192x192", "512x512"] && icons.contains { $0["purpose"] == "maskable" })
        for icon in icons { #expect(browser.get(icon["src"] ?? "").status == .ok) }
        let worker = browser.get("/sw.js")
        #expect(worker.headers["Cache-Control"] == "no-cache" && worker.bodyText.contains(site.app.serviceWorkerScript.revision))
        #expect(!worker.bodyText.contains("__REVISION__"))
        let page = browser.get("/").bodyText
        #expect(page.contains(#"<link rel="manifest" href="/manifest.webmanifest">"#) && page.contains("apple-touch-icon"))
        #expect(browser.get("/offline.html").bodyText.contains("오프라인"))
    }

    /// A silenced member gets nothing more, even what was queued before; a member who left the
    /// meetup gets none of its talk.
    @Test func theSilencedAndThoseWhoLeftGetNothing() throws {
        let (host, mina, jun) = { let b = site.members("host", "mina", "jun"); return (b[0], b[1], b[2]) }()
        try turnOn(mina)
        try turnOn(jun)
        let meetup = hostMeetup(host)
        for member in [mina, jun] {
            member.post(meetup + "/apply", [], from: meetup)
        }
        host.post(meetup + "/applications/mina/accept", [], from: meetup)
        host.post(meetup + "/applications/jun/accept", [], from: meetup)
        #expect(try site.app.runPush().delivered == 2, "both told they are in")

        // Jun leaves; then the host writes in the talk, and a moderator silences Mina before it goes out.
        #expect(jun.post(meetup + "/cancel", [], from: meetup).status == .seeOther)
        host.post(meetup + "/comments", [("body", "Rain: we meet under the bridge")], from: meetup)
        _ = try site.database.accounts.setRole(.admin, username: "host")
        try site.database.moderation.sanction(.silence, userID: try userID("mina"), by: try userID("host"), until: nil, reason: "spam")
        #expect(try site.app.runPush() == PushSender.Delivery(dropped: 1), "Mina's talk push dropped; none queued for Jun")
        #expect(try service.messages().delivered.count == 2)
    }
}
