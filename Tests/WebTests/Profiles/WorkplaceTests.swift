import Formats
import Foundation
import HTTP
import Mail
import Synchronization
import Testing
import TestSupport
import Storage
@testable import Web

/// Verified workplaces: a code mailed to a work address (through a real SMTP server on
/// loopback), the badge on the profile, and meetups only verified office workers may join.
@Suite struct WorkplaceTests {
    private func site(_ sink: MailSink) throws -> TestSite {
        var configuration = TestSite.configuration()
        configuration.baseURL = PublicURL("https://run.example.org")
        configuration.mail = MailConfiguration(server: SMTPServer(url: sink.url)!, from: MailAddress(name: "Moim", address: "moim@run.example.org"))
        return try TestSite(configuration: configuration)
    }

    /// A meetup for verified office workers, hosted by `browser`; its address.
    private func hostOfficeRun(_ browser: Browser, capacity: Int = 10) throws -> String {
        let fields: [(String, String)] = [
            ("title", "Lunch 5K for office workers"), ("description", "Gangnam, back by 1."),
            ("starts_at", LocalDateTime.text(Date().addingTimeInterval(3 * 86_400), .current)), ("duration", "45"),
            ("place_name", "Gangnam station exit 11"), ("region", "seoul"), ("time_slot", "afterWork"), ("distance", "5"),
            ("pace", "average"), ("style", "run"), ("capacity", String(capacity)), ("signup_mode", "firstCome"), ("deadline", ""),
            ("gender_rule", "any"), ("workplace_only", "on"),
        ]
        let created = browser.post("/meetups", fields, from: "/meetups/new")
        #expect(created.status == .seeOther)
        return try #require(created.headers["Location"])
    }

    /// The six-digit code of the newest mail to `address`.
    private func mailedCode(sentTo address: String, _ sink: MailSink, site: TestSite) throws -> String {
        try site.app.runMail()
        let mail = try #require(sink.messages().last { $0.recipient == address })
        return String(try #require(mail.text.firstMatch(of: /\n +([0-9]{6})\r?\n/)?.1))
    }

    @Test func aHostMakesARunForVerifiedOfficeWorkersThatNobodyElseCanJoin() throws {
        let sink = try MailSink()
        let site = try site(sink)
        let people = site.members("hostess", "mina", "jun")
        let (hostess, mina, jun) = (people[0], people[1], people[2])
        let run = try hostOfficeRun(hostess)
        #expect(mina.get(run).bodyText.contains("Verified office workers"))
        _ = try hostOfficeRun(hostess)  // a second, to filter
        let plainFields: [(String, String)] = [
            ("title", "Open river run"), ("starts_at", LocalDateTime.text(Date().addingTimeInterval(4 * 86_400), .current)),
            ("duration", "60"), ("place_name", "Yeouido"), ("time_slot", "afterWork"), ("pace", "average"), ("style", "run"),
            ("capacity", "10"), ("signup_mode", "firstCome"), ("deadline", ""), ("gender_rule", "any"),
        ]
        #expect(hostess.post("/meetups", plainFields, from: "/meetups/new").status == .seeOther)
        let filtered = mina.get("/meetups?workplace=1").bodyText
        #expect(filtered.contains("Lunch 5K for office workers") && !filtered.contains("Open river run"))
        #expect(mina.get("/meetups").bodyText.contains("Open river run"))

        // Mina, not verified, is sent to settings, and comes back to the run once verified.
        let refused = mina.post(run + "/apply", [], from: run)
        #expect(refused.status == .seeOther)
        let settings = try #require(refused.headers["Location"])
        #expect(settings.hasPrefix("/settings?for=") && settings.hasSuffix("#workplace"))
        #expect(mina.get(settings).bodyText.contains("verify your workplace below"))
        #expect(try site.database.meetups.participants(meetupID: try #require(Int64(run.split(separator: "/").last ?? ""))).isEmpty)

        // Free mail proves nothing; neither does something that is not an address.
        for address in ["mina@gmail.com", "mina@mail.naver.com", "mina@Daum.net", "mina@acme", "<script>@acme.co.kr"] {
            let answer = mina.post("/settings/workplace", [("work_email", address), ("next", run)], from: settings)
            #expect(answer.status == .unprocessableContent, "\(address)")
            #expect(!answer.bodyText.contains("<script>@"))
        }
        let sent = mina.post("/settings/workplace", [("work_email", " Mina.Kim@Acme.co.kr "), ("next", run)], from: settings)
        #expect(sent.status == .seeOther)
        let code = try mailedCode(sentTo: "mina.kim@acme.co.kr", sink, site: site)
        let page = mina.get(try #require(sent.headers["Location"])).bodyText
        #expect(page.contains("A code went to an address at acme.co.kr") && page.contains("name=\"work_code\""))
        #expect(!page.contains(code))
        let wrong = code == "000000" ? "111111" : "000000"
        let missed = mina.post("/settings/workplace/confirm", [("work_code", wrong), ("next", run)], from: "/settings")
        #expect(missed.status == .unprocessableContent && missed.bodyText.contains("4 tries left"))
        #expect(mina.post("/settings/workplace/confirm", [("work_code", "12ab"), ("next", run)], from: "/settings").status == .unprocessableContent)
        let verified = mina.post("/settings/workplace/confirm", [("work_code", code), ("next", run)], from: "/settings")
        #expect(verified.status == .seeOther && verified.headers["Location"] == run)
        #expect(mina.post(run + "/apply", [], from: run).status == .seeOther)
        #expect(mina.get(run).bodyText.contains("You are going!"))

        // The profile shows the domain, never the address; Jun still cannot join.
        let profile = jun.get("/u/mina").bodyText
        #expect(profile.contains("Works at acme.co.kr") && !profile.contains("mina.kim"))
        #expect(jun.post(run + "/apply", [], from: run).headers["Location"]?.hasPrefix("/settings") == true)
        #expect(jun.get("/meetups?eligible=1").bodyText.contains("Lunch 5K") == false)

        // One address vouches for one member: Jun cannot use Mina's.
        #expect(jun.post("/settings/workplace", [("work_email", "mina.kim@acme.co.kr")], from: "/settings").status == .seeOther)
        let junsCode = try mailedCode(sentTo: "mina.kim@acme.co.kr", sink, site: site)
        let taken = jun.post("/settings/workplace/confirm", [("work_code", junsCode)], from: "/settings")
        #expect(taken.status == .unprocessableContent && taken.bodyText.contains("already verifies another account"))

        // Mina removes it: the badge goes, and the address is free again.
        #expect(mina.post("/settings/workplace/remove", [], from: "/settings").status == .seeOther)
        #expect(!jun.get("/u/mina").bodyText.contains("acme.co.kr"))
    }

    @Test func aSiteThatSendsNoMailOffersNoWorkplaceRule() throws {
        let host = try TestSite().members("hostess")[0]
        #expect(!host.get("/meetups/new").bodyText.contains("name=\"workplace_only\""))
        #expect(host.get("/settings").bodyText.contains("a workplace cannot be verified here"))
    }

    @Test func codesExpireAllowFiveTriesAndTheBadgeLapsesAfterAYear() throws {
        let sink = try MailSink()
        let site = try site(sink)
        let mina = site.members("mina")[0]
        let minaID = try #require(try site.database.accounts.user(username: "mina")?.id)
        let start = Date()
        let hash = { @Sendable (code: String) in WorkAddress.codeHash(code, userID: minaID) }
        func ask(at now: Date) throws {
            try site.database.profiles.startWorkplaceCheck(userID: minaID, domain: "acme.co.kr", addressHash: Crypto.sha256(Array("mina@acme.co.kr".utf8)),
                                                  codeHash: hash("123456"), expiresAt: now.addingTimeInterval(App.workplaceCodeLifetime), now: now)
        }

        // Past its half hour a code is void.
        try ask(at: start)
        #expect(try site.database.profiles.confirmWorkplace(userID: minaID, codeHash: hash("123456"), now: start.addingTimeInterval(31 * 60)) == .noCode)

        // Five wrong tries, even at once, and the right code no longer works.
        try ask(at: start)
        let results = Mutex<[WorkplaceConfirmation]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let result = try? site.database.profiles.confirmWorkplace(userID: minaID, codeHash: hash(String(format: "%06d", 200_000 + index)), now: start)
            results.withLock { $0.append(result ?? .noCode) }
        }
        #expect(results.withLock { $0.filter { if case .wrongCode = $0 { true } else { false } }.count } == 5)
        #expect(try site.database.profiles.confirmWorkplace(userID: minaID, codeHash: hash("123456"), now: start) == .noCode)

        // A code that works: verified for a year, then the rule no longer lets her in.
        try ask(at: start)
        #expect(try site.database.profiles.confirmWorkplace(userID: minaID, codeHash: hash("123456"), now: start) == .verified(domain: "acme.co.kr"))
        let user = try #require(try site.database.accounts.user(username: "mina"))
        #expect(user.verifiedWorkplace(at: start.addingTimeInterval(364 * 86_400)) == "acme.co.kr")
        #expect(user.verifiedWorkplace(at: start.addingTimeInterval(366 * 86_400)) == nil)
        var meetup = Meetup(
            id: 1, hostID: 2, crewID: nil, crewOnly: false, title: "t", description: "", descriptionHTML: "", startsAt: start, durationMinutes: 60,
            placeName: "p", address: "", latitude: nil, longitude: nil, placeNote: "", region: nil, timeSlot: .afterWork, distanceKm: nil,
            pace: .average, style: .run, capacity: 5, signupMode: .firstCome, deadline: start, afterParty: false, genderRule: .any,
            minAge: nil, maxAge: nil, jobs: "", acceptedCount: 0, closedAt: nil, sequence: 0, createdAt: start, updatedAt: start)
        meetup.workplaceOnly = true
        #expect(meetup.ineligibility(of: user, at: start).isEmpty)
        #expect(meetup.ineligibility(of: user, at: start.addingTimeInterval(366 * 86_400)) == [.missingWorkplace])
        #expect(mina.get("/settings").bodyText.contains("Works at acme.co.kr, verified until"))

        // Three codes an hour.
        for _ in 0..<3 { #expect(mina.post("/settings/workplace", [("work_email", "mina@acme.co.kr")], from: "/settings").status == .seeOther) }
        let limited = mina.post("/settings/workplace", [("work_email", "mina@acme.co.kr")], from: "/settings")
        #expect(limited.status == .tooManyRequests && limited.headers["Retry-After"] != nil)
    }

    @Test func aRushOfApplicationsLetsInOnlyVerifiedOfficeWorkers() throws {
        let sink = try MailSink()
        let site = try site(sink)
        // Eight rush a run of two places; half of them verified their workplace.
        let names = (1...8).map { "runner\($0)" }
        let hostess = site.members("hostess")[0]
        _ = site.members(names[0], names[1], names[2], names[3], names[4], names[5], names[6], names[7])
        let run = try hostOfficeRun(hostess, capacity: 2)
        let meetupID = try #require(Int64(run.split(separator: "/").last ?? ""))
        var ids: [Int64] = []
        for (index, name) in names.enumerated() {
            let id = try #require(try site.database.accounts.user(username: name)?.id)
            ids.append(id)
            guard index.isMultiple(of: 2) else { continue }
            try site.database.profiles.startWorkplaceCheck(userID: id, domain: "acme.co.kr", addressHash: Crypto.sha256(Array("\(name)@acme.co.kr".utf8)),
                                                  codeHash: WorkAddress.codeHash("654321", userID: id), expiresAt: Date().addingTimeInterval(600))
            #expect(try site.database.profiles.confirmWorkplace(userID: id, codeHash: WorkAddress.codeHash("654321", userID: id)) == .verified(domain: "acme.co.kr"))
        }
        let verified = Set(ids.enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element))
        let applicants = ids
        DispatchQueue.concurrentPerform(iterations: applicants.count) { index in
            _ = try? site.database.meetups.apply(meetupID: meetupID, userID: applicants[index])
        }
        let standing = try site.database.meetups.participants(meetupID: meetupID)
        #expect(standing.allSatisfy { verified.contains($0.user.id ?? 0) })
        #expect(standing.filter { $0.status == .accepted }.count == 2 && standing.filter { $0.status == .waitlisted }.count == 2)
    }
}
