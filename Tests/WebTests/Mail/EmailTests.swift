import Foundation
import HTTP
import Mail
import Testing
import TestSupport
import Storage
@testable import Web

/// Mail end to end: the site's forms, the outbox, and a real SMTP server (aiosmtpd) on
/// loopback that receives what members would find in their inboxes.
@Suite struct EmailTests {
    static let origin = "https://run.example.org"

    private func site(_ sink: MailSink, database: AppDatabase? = nil) throws -> TestSite {
        var configuration = TestSite.configuration()
        configuration.baseURL = PublicURL(Self.origin)
        var mail = MailConfiguration(server: SMTPServer(url: sink.url)!, from: MailAddress(name: "Moim", address: "moim@run.example.org"))
        mail.firstRetry = 60
        configuration.mail = mail
        return try TestSite(configuration: configuration, database: database)
    }

    /// The site path of the first link in `mail` containing `part`.
    private func path(in mail: ReceivedMail?, containing part: String) throws -> String {
        let link = try #require(mail?.links.first { $0.contains(part) })
        #expect(link.hasPrefix(Self.origin))
        return String(link.dropFirst(Self.origin.count))
    }

    private func verify(_ browser: Browser, _ sink: MailSink, site: TestSite, username: String) throws {
        try site.app.runMail()
        let mail = sink.messages().last { $0.recipient == "\(username)@example.com" && $0.subject.contains("Confirm") }
        #expect(browser.get(try path(in: mail, containing: "/email/verify/")).status == .seeOther)
    }

    @Test func aForgottenPasswordComesBackByMailOnceAndEndsEverySession() throws {
        let sink = try MailSink()
        let site = try site(sink)
        let mina = site.members("mina")[0]
        let visitor = site.browser()
        let asked = visitor.post("/password/forgot", [("login", "MINA@example.com")])
        #expect(asked.status == .ok)
        #expect(asked.bodyText.contains("If an account matches"))
        try site.app.runMail()
        let mail = sink.waitForMessages(2).first { $0.subject.contains("Reset") }
        #expect(mail?.recipient == "mina@example.com")
        #expect(mail?.html.contains("Choose a new password") == true)
        #expect(mail?.header("List-Unsubscribe") == nil)  // account mail, not a list
        let reset = try path(in: mail, containing: "/password/reset/")

        // The token is stored only as a hash, and the sent message no longer holds it.
        let token = String(reset.split(separator: "/").last ?? "")
        #expect(!(try site.database.storedTokenHashesAndMessages()).contains { $0.contains(token) })

        #expect(visitor.get(reset).bodyText.contains("@mina"))
        let short = visitor.post(reset, [("new_password", "short"), ("new_password_confirmation", "short")])
        #expect(short.status == .unprocessableContent)
        let done = visitor.post(reset, [("new_password", "a brand new password"), ("new_password_confirmation", "a brand new password")])
        #expect(done.status == .seeOther)
        #expect(visitor.get("/settings").status == .ok)  // signed in afresh
        // Mina's other browser was signed out, and the old password no longer works.
        #expect(mina.get("/settings").status == .seeOther)
        #expect(site.browser().logIn("mina").status == .unprocessableContent)
        #expect(site.browser().logIn("mina", "a brand new password").status == .seeOther)
        // The link works once.
        #expect(site.browser().get(reset).status == .notFound)
        #expect(site.browser().get("/password/reset/not-a-token").status == .notFound)
    }

    @Test func theAnswerIsTheSameForAnAccountThatDoesNotExistAndNothingIsSent() throws {
        let sink = try MailSink()
        let site = try site(sink)
        let visitor = site.browser()
        let answer = visitor.post("/password/forgot", [("login", "nobody@example.com")])
        #expect(answer.status == .ok)
        #expect(answer.bodyText.contains("If an account matches"))
        try site.app.runMail()
        let counts = try site.database.mail.outboxCounts()
        #expect(counts.queued == 0 && counts.sent == 0 && counts.failed == 0)
        #expect(sink.messages().isEmpty)
    }

    @Test func resetLinksExpireAfterAnHourAndRequestsAreLimited() throws {
        let sink = try MailSink()
        let site = try site(sink)
        _ = site.members("mina")
        let link = try #require(try App.resetLink(database: site.database, username: "mina", origin: Self.origin))
        let hash = try #require(App.emailTokenHash(String(link.split(separator: "/").last ?? "")))
        #expect(try site.database.accounts.resetTokenUser(tokenHash: hash, now: Date().addingTimeInterval(3_590)).get().username == "mina")
        #expect(try site.database.accounts.resetTokenUser(tokenHash: hash, now: Date().addingTimeInterval(3_601)) == .failure(.expired))

        // Per account: 3 links an hour (the admin's counts), silently; per network: 5 requests.
        let visitor = site.browser(address: "203.0.113.9")
        for _ in 0..<4 { #expect(visitor.post("/password/forgot", [("login", "mina")]).status == .ok) }
        #expect(try site.database.mail.outbox(userID: 1).filter { $0.kind == .reset }.count == 2)
        #expect(visitor.post("/password/forgot", [("login", "mina")]).status == .ok)
        let refused = visitor.post("/password/forgot", [("login", "mina")])
        #expect(refused.status == .tooManyRequests)
        #expect(refused.headers["Retry-After"] != nil)
        #expect(site.browser(address: "198.51.100.7").post("/password/forgot", [("login", "mina")]).status == .ok)
    }

    @Test func changingThePasswordInSettingsEndsTheResetLinksSentBefore() throws {
        let sink = try MailSink()
        let site = try site(sink)
        let mina = site.members("mina")[0]
        let link = try #require(try App.resetLink(database: site.database, username: "mina", origin: Self.origin))
        let path = String(link.dropFirst(Self.origin.count))
        #expect(site.browser().get(path).status == .ok)
        let changed = mina.post("/settings/password", [("current_password", "correct horse battery"), ("new_password", "another good password"),
                                                       ("new_password_confirmation", "another good password")], from: "/settings")
        #expect(changed.status == .seeOther)
        #expect(site.browser().get(path).status == .notFound)
    }

    @Test func anAddressIsVerifiedByItsLinkAndAChangeNeedsItAgain() throws {
        let sink = try MailSink()
        let site = try site(sink)
        let mina = site.browser(language: "ko")
        #expect(mina.signUp().status == .seeOther)
        #expect(mina.get("/settings").bodyText.contains("인증 안 됨"))
        try site.app.runMail()
        let welcome = try #require(sink.waitForMessages(1).first)
        #expect(welcome.subject.contains("이메일 주소를 확인해 주세요"))  // in her language
        #expect(welcome.text.contains("Mina Kim님"))
        let verify = try path(in: welcome, containing: "/email/verify/")
        let visited = mina.get(verify)
        #expect(visited.headers["Location"] == "/settings")
        #expect(mina.get("/settings").bodyText.contains("인증됨"))

        // A new address: unverified, a link to it and a word to the old one.
        let wrong = mina.post("/settings/email", [("email", "mina@new.example.org"), ("email_password", "wrong password!")], from: "/settings")
        #expect(wrong.status == .unprocessableContent)
        let changed = mina.post("/settings/email", [("email", "mina@new.example.org"), ("email_password", "correct horse battery")], from: "/settings")
        #expect(changed.status == .seeOther)
        #expect(mina.get("/settings").bodyText.contains("인증 안 됨"))
        try site.app.runMail()
        let after = sink.waitForMessages(3)
        #expect(after.contains { $0.recipient == "mina@new.example.org" && $0.links.contains { $0.contains("/email/verify/") } })
        #expect(after.contains { $0.recipient == "mina@example.com" && $0.text.contains("mina@new.example.org") })
        // The old address is told what to do if the change was not hers, and the new one what
        // to do if she did not ask: each mail says its own.
        let warning = try #require(after.last { $0.recipient == "mina@example.com" })
        #expect(warning.text.contains("직접 바꾼 게 아니라면 바로 비밀번호를 재설정하고"))
        #expect(warning.links.contains { $0.contains("/password/forgot") })
        #expect(!warning.text.contains("이 메일은 무시하세요"))
        let newLink = try #require(after.first { $0.recipient == "mina@new.example.org" })
        #expect(newLink.text.contains("이 메일은 무시하세요"))
        #expect(!newLink.text.contains("직접 바꾼 게 아니라면"))
        // The first link was for the old address.
        #expect(site.browser().get(verify).status == .notFound)
        // The new link, stored in the change's own transaction, proves the new address.
        let proof = try #require(after.first { $0.recipient == "mina@new.example.org" })
        #expect(mina.get(try path(in: proof, containing: "/email/verify/")).headers["Location"] == "/settings")
        #expect(mina.get("/settings").bodyText.contains("인증됨"))

        // Resending is limited to three links an hour: the signup's, the change's, one more.
        #expect(mina.post("/settings/email/verify", [], from: "/settings").status == .seeOther)
        #expect(mina.post("/settings/email/verify", [], from: "/settings").status == .tooManyRequests)
        // So is changing the address again, which would mail two more.
        let again = mina.post("/settings/email", [("email", "mina@third.example.org"), ("email_password", "correct horse battery")], from: "/settings")
        #expect(again.status == .tooManyRequests)
        #expect(try site.database.accounts.user(username: "mina")?.email == "mina@new.example.org")
    }

    @Test func aDigestCountsTheMessagesWaitingInTalk() throws {
        // Given Mina, verified, with two messages waiting in a conversation and nothing else unread
        let sink = try MailSink()
        let site = try site(sink)
        let people = site.members("mina", "jun")
        try verify(people[0], sink, site: site, username: "mina")
        people[0].post("/u/jun/follow", [], from: "/u/jun")  // so Jun's conversation reaches her inbox
        let room = try #require(people[1].post("/u/mina/talk", [], from: "/u/mina").headers["Location"]?.split(separator: "#").first.map(String.init))
        people[1].post(room, [("body", "Saturday?")], from: room)
        people[1].post(room, [("body", "6:30 at gate 2")], from: room)
        let count = sink.messages().count
        // When her weekly digest is due
        try site.app.runMail(now: Date().addingTimeInterval(8 * 86_400))
        // Then it says how many wait, and links to Talk
        let digest = try #require(sink.waitForMessages(count + 2).dropFirst(count).first { $0.recipient == "mina@example.com" })
        #expect(digest.subject == "2 messages wait for you on run.example.org")
        #expect(digest.text.contains("2 messages wait for you in Talk."))
        #expect(digest.links.contains { $0.hasSuffix("/talk") })
    }

    @Test func aDigestGathersUnreadNotificationsAndOneClickUnsubscribesWithoutSigningIn() throws {
        let sink = try MailSink()
        let site = try site(sink)
        let people = site.members("mina", "jun", "ara")
        try verify(people[0], sink, site: site, username: "mina")
        people[1].post("/u/mina/follow", [], from: "/u/mina")
        people[2].post("/u/mina/follow", [], from: "/u/mina")
        // Ara never verified her address: no digest for her, whatever happens.
        people[0].post("/u/ara/follow", [], from: "/u/ara")

        let count = sink.messages().count
        try site.app.runMail(now: Date().addingTimeInterval(3 * 86_400))
        #expect(sink.messages().count == count)  // weekly by default: not yet
        try site.app.runMail(now: Date().addingTimeInterval(8 * 86_400))
        let digest = try #require(sink.waitForMessages(count + 1).last)
        #expect(digest.recipient == "mina@example.com")
        #expect(digest.subject == "You have 1 unread notification on run.example.org")
        #expect(digest.text.contains("and 1 other started following you"))
        #expect(digest.header("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click")
        let unsubscribe = try #require(digest.header("List-Unsubscribe")).trimmingCharacters(in: CharacterSet(charactersIn: "<>"))
        #expect(digest.links.contains(unsubscribe))

        // Nothing new: no second digest.
        try site.app.runMail(now: Date().addingTimeInterval(16 * 86_400))
        #expect(sink.messages().count == count + 1)

        // A mail provider's one-click POST: no cookies, no CSRF token, no Origin.
        let provider = site.browser()
        let path = String(unsubscribe.dropFirst(Self.origin.count))
        #expect(provider.get(path).bodyText.contains("Stop the digest emails"))
        let done = provider.post(path, [("List-Unsubscribe", "One-Click")], withoutToken: ())
        #expect(done.status == .ok)
        #expect(try site.database.mail.mailSettings(userID: 1).digest == .off)
        #expect(site.browser().post("/unsubscribe/" + String(repeating: "0", count: 48), [("List-Unsubscribe", "One-Click")], withoutToken: ()).status == .notFound)
        #expect(people[0].get("/settings").bodyText.contains(#"<option value="off" selected>"#))
    }

    @Test func aMeetupMovedOrAPlaceFromTheWaitlistIsMailedAtOnce() throws {
        let sink = try MailSink()
        let site = try site(sink)
        let people = site.members("hostess", "mina", "jun", "ara")
        try verify(people[1], sink, site: site, username: "mina")
        try verify(people[2], sink, site: site, username: "jun")
        try verify(people[3], sink, site: site, username: "ara")
        // Jun wants no notices.
        people[2].post("/settings/mail", [("digest", "weekly")], from: "/settings")
        let start = LocalDateTime.text(Date().addingTimeInterval(3 * 86_400), .current)
        let fields = [
            ("title", "Evening 5K, Han river"), ("starts_at", start), ("duration", "60"), ("place_name", "Yeouido Park"),
            ("time_slot", "afterWork"), ("pace", "average"), ("style", "run"), ("capacity", "2"), ("signup_mode", "firstCome"),
            ("gender_rule", "any"), ("region", "seoul"), ("distance", "5"), ("description", "Easy"),
        ]
        let url = try #require(people[0].post("/meetups", fields, from: "/meetups/new").headers["Location"])
        people[1].post(url + "/apply", [], from: url)
        people[2].post(url + "/apply", [], from: url)
        people[3].post(url + "/apply", [], from: url)  // the waitlist
        try site.app.runMail()
        let before = sink.messages().count
        let moved = fields.map { $0.0 == "place_name" ? ($0.0, "Banpo Bridge") : $0 }
        #expect(people[0].post(url + "/edit", moved, from: url + "/edit").status == .seeOther)
        try site.app.runMail()
        let notices = Array(sink.waitForMessages(before + 1).dropFirst(before))
        #expect(notices.map(\.recipient) == ["mina@example.com"])
        #expect(notices.first?.subject.contains("a meetup you are going to") == true)
        #expect(notices.first?.text.contains("Evening 5K, Han river") == true)
        #expect(notices.first?.header("List-Unsubscribe")?.contains("list=notices") == true)
        // Once only.
        try site.app.runMail()
        #expect(sink.messages().count == before + 1)

        // Jun gives up his place: Ara, first on the waitlist, gets it and hears at once.
        #expect(people[2].post(url + "/cancel", [], from: url).status == .seeOther)
        try site.app.runMail()
        let promoted = sink.waitForMessages(before + 2).last
        #expect(promoted?.recipient == "ara@example.com")
        #expect(promoted?.subject == "A place opened up: you are going to the meetup.")
    }

    @Test func aReminderIsMailedTheDayBeforeAndItsLinkTurnsOffRemindersAlone() throws {
        let sink = try MailSink()
        let site = try site(sink)
        let people = site.members("hostess", "mina")
        try verify(people[1], sink, site: site, username: "mina")
        let fields = [
            ("title", "Evening 5K, Han river"), ("starts_at", LocalDateTime.text(Date().addingTimeInterval(3 * 86_400), .current)),
            ("duration", "60"), ("place_name", "Yeouido Park"), ("time_slot", "afterWork"), ("pace", "average"), ("style", "run"),
            ("capacity", "2"), ("signup_mode", "firstCome"), ("gender_rule", "any"), ("region", "seoul"), ("distance", "5"), ("description", "Easy"),
        ]
        let url = try #require(people[0].post("/meetups", fields, from: "/meetups/new").headers["Location"])
        people[1].post(url + "/apply", [], from: url)
        try site.app.runMail()
        let before = sink.messages().count
        let id = try #require(Int64(url.split(separator: "/").last ?? ""))
        let startsAt = try #require(try site.database.meetups.meetup(id: id)).startsAt
        let dayBefore = startsAt.addingTimeInterval(-20 * 3_600)
        try site.app.sweep(now: dayBefore)
        try site.app.runMail(now: dayBefore)
        let reminder = try #require(sink.waitForMessages(before + 1).last)
        #expect(reminder.recipient == "mina@example.com")
        #expect(reminder.subject.hasPrefix("Coming up: Evening 5K, Han river, ") && reminder.subject.hasSuffix(", at Yeouido Park"))
        let unsubscribe = try #require(reminder.header("List-Unsubscribe")).trimmingCharacters(in: CharacterSet(charactersIn: "<>"))
        #expect(unsubscribe.hasSuffix("list=reminders") && reminder.text.contains("Unsubscribe from meetup reminders"))

        // One click turns reminders off, and only them
        let path = String(unsubscribe.dropFirst(Self.origin.count))
        #expect(site.browser().get(path).bodyText.contains("Stop meetup reminders by email"))
        #expect(site.browser().post(path, [("List-Unsubscribe", "One-Click")], withoutToken: ()).status == .ok)
        let minaID = try #require(try site.database.accounts.user(username: "mina")?.id)
        let settings = try site.database.mail.mailSettings(userID: minaID)
        #expect(!settings.meetupReminders && settings.meetupNotices)
        // So the hour's reminder is not mailed (it is still a notification)
        let hourBefore = startsAt.addingTimeInterval(-30 * 60)
        try site.app.sweep(now: hourBefore)
        try site.app.runMail(now: hourBefore)
        #expect(sink.messages().count == before + 1)
        #expect(people[1].get("/notifications").bodyText.contains("Starting within the hour: Evening 5K"))
        // And settings turn it on again
        #expect(!people[1].get("/settings").bodyText.contains(#"name="meetup_reminders" checked"#))
        people[1].post("/settings/mail", [("digest", "weekly"), ("meetup_notices", "on"), ("meetup_reminders", "on")], from: "/settings")
        #expect(people[1].get("/settings").bodyText.contains(#"name="meetup_reminders" checked"#))
    }

    @Test func aServerThatRefusesThenAcceptsGetsTheMessageLaterAndARestartLosesNothing() throws {
        var options = MailSink.Options()
        options.refuse = 1
        let sink = try MailSink(options)
        let directory = NSTemporaryDirectory() + "moim-mail-db-\(UUID().uuidString)"
        var database = try AppDatabase.open(directory: directory)
        var site = try site(sink, database: database)
        _ = site.members("mina")
        try site.app.runMail()
        #expect(sink.messages().isEmpty)
        var queued = try #require(try database.mail.outbox(userID: 1).first)
        #expect(queued.status == .queued)
        #expect(queued.lastError.contains("451"))
        // Not before the wait is over.
        try site.app.runMail(now: Date().addingTimeInterval(30))
        #expect(sink.messages().isEmpty)

        // The mail server goes away; the site restarts; the server comes back on its port.
        let port = sink.port
        sink.stop()
        try site.app.runMail(now: Date().addingTimeInterval(61))
        queued = try #require(try database.mail.outbox(userID: 1).first)
        #expect(queued.status == .queued)
        #expect(queued.attempts == 2)
        try database.close()
        options = MailSink.Options()
        options.port = port
        let back = try MailSink(options)
        database = try AppDatabase.open(directory: directory)
        site = try self.site(back, database: database)
        try site.app.runMail(now: Date().addingTimeInterval(3 * 60 + 2))
        let received = back.waitForMessages(1)
        #expect(received.map(\.recipient) == ["mina@example.com"])
        #expect(try database.mail.outbox(userID: 1).first?.status == .sent)
        try database.close()
    }

    /// The pid of a process that has ended, on this machine.
    private func deadProcess() throws -> Int32 {
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        return gone.processIdentifier
    }

    @Test func aMessageClaimedByAProcessThatDiedIsSentAtOnceNotAfterTheClaimRunsOut() throws {
        let sink = try MailSink()
        let site = try site(sink)
        _ = site.members("mina")
        // A sender that died holding the claim: its pid no longer exists.
        #expect(try site.database.mail.claimDueMail(owner: MailClaimant.id(pid: try deadProcess())).count == 1)
        #expect(try site.database.mail.claimDueMail(owner: MailClaimant.current).isEmpty)  // still claimed
        try site.app.runMail()
        #expect(sink.waitForMessages(1).map(\.recipient) == ["mina@example.com"])
    }

    @Test func aMessageClaimedOnAnotherMachineWaitsForItsClaimEvenIfTheSamePidIsGoneHere() throws {
        let sink = try MailSink()
        let site = try site(sink)
        _ = site.members("mina")
        // The other server's process may be alive on its own machine: its claim holds here.
        let elsewhere = (MailClaimant.machine ^ 1) << 32 | Int64(try deadProcess())
        #expect(try site.database.mail.claimDueMail(owner: elsewhere).count == 1)
        try site.app.runMail()
        #expect(sink.messages().isEmpty)
        // Until it runs out.
        try site.app.runMail(now: Date().addingTimeInterval(301))
        #expect(sink.waitForMessages(1).map(\.recipient) == ["mina@example.com"])
    }

    @Test func aRecipientTheServerRejectsIsNotRetried() throws {
        var options = MailSink.Options()
        options.rejectDomain = "nowhere.test"
        let sink = try MailSink(options)
        let site = try site(sink)
        site.browser().signUp(username: "ghost", email: "ghost@nowhere.test")
        try site.app.runMail()
        let mail = try #require(try site.database.mail.outbox(userID: 1).first)
        #expect(mail.status == .failed)
        #expect(mail.lastError.contains("550"))
        #expect(mail.message.isEmpty)
        // Staff see why, on the member's admin page and on the dashboard.
        let admin = site.members("staffer")[0]
        _ = try site.database.accounts.setRole(.admin, username: "staffer")
        admin.logIn("staffer")
        let page = admin.get("/admin/users/ghost").bodyText
        #expect(page.contains("Address check") && page.contains("Failed") && page.contains("550 5.1.1 No such user here"))
        #expect(page.contains(#"<span class="badge role">Member</span>"#))
        #expect(admin.get("/admin").bodyText.contains("mails failed (30 days)"))
    }

    @Test func aNameThatCouldInjectHeadersGetsNoMail() throws {
        let sink = try MailSink()
        let site = try site(sink)
        // Forms refuse it…
        #expect(site.browser().signUp(username: "eve", displayName: "Eve\r\nBcc: all@example.com").status == .unprocessableContent)
        // …and a row that somehow holds it is refused when the message is made.
        _ = site.members("mina")
        try site.database.storeDisplayNameUnchecked("Mina\r\nBcc: all@example.com", username: "mina")
        #expect(site.browser().post("/password/forgot", [("login", "mina")]).status == .ok)
        try site.app.runMail()
        #expect(sink.messages().allSatisfy { !$0.raw.contains("Bcc:") })
        #expect(try site.database.mail.outbox(userID: 1).allSatisfy { $0.kind != .reset })
    }

    @Test func withoutAMailServerThePagesSaySo() throws {
        let site = try TestSite()
        let mina = site.members("mina")[0]
        #expect(site.browser().get("/password/forgot").bodyText.contains("This site does not send email"))
        #expect(mina.get("/settings").bodyText.contains("This site does not send email"))
        #expect(!mina.get("/settings").bodyText.contains("Not verified"))
        #expect(site.browser().get("/login").bodyText.contains(#"href="/password/forgot""#))
    }
}
