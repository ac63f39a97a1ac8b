import Formats
import Foundation
import HTTP
@testable import Storage
import Testing
@testable import Web

/// Deleting an account from settings: the password first, crews handed over first, then
/// nothing left that names the member but the payment records the law keeps.
@Suite struct AccountDeletionTests {
    /// Every text a table holds that contains `needle` (ignoring case), as `table.column`;
    /// binary columns are left out (hashes and tokens), as are the migration bookkeeping's.
    private func rowsNaming(_ needle: String, in database: AppDatabase) throws -> [String] {
        try database.readRows { db in
            let columns: [(String, String)] = db.engine == .postgres
                ? try db.fetchAll("""
                    SELECT table_name, column_name FROM information_schema.columns
                    WHERE table_schema = 'public' AND data_type NOT IN ('bytea') AND table_name NOT LIKE 'moim_%'
                    """) { ($0.isNull(atIndex: 0) ? "" : try $0.string(atIndex: 0), try $0.string(atIndex: 1)) }
                : try db.fetchAll("""
                    SELECT m.name, p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p
                    WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name != 'grdb_migrations' AND upper(p.type) != 'BLOB'
                      AND m.sql NOT LIKE 'CREATE VIRTUAL TABLE%' AND m.name NOT LIKE '%Search_%'
                    """) { (try $0.string(atIndex: 0), try $0.string(atIndex: 1)) }
            return try columns.filter { table, column in
                let cast = db.engine == .postgres ? "CAST(\"\(column)\" AS text)" : "CAST(\"\(column)\" AS TEXT)"
                return try db.value("SELECT count(*) FROM \"\(table)\" WHERE lower(\(cast)) LIKE ?", ["%" + needle.lowercased() + "%"], as: Int.self) ?? 0 > 0
            }.map { "\($0.0).\($0.1)" }
        }
    }

    private func hostMeetup(_ browser: Browser, title: String) -> String {
        let local = LocalDateTime.text(Date().addingTimeInterval(3 * 86_400), .current)
        return browser.post("/meetups", [
            ("title", title), ("description", "Steady."), ("starts_at", local), ("duration", "60"), ("place_name", "Yeouido Park"),
            ("address", "Seoul"), ("latitude", ""), ("longitude", ""), ("place_note", ""), ("region", "seoul"), ("time_slot", "weekend"),
            ("distance", "10"), ("pace", "average"), ("style", "run"), ("capacity", "5"), ("signup_mode", "firstCome"), ("deadline", ""),
            ("gender_rule", "any"),
        ], from: "/meetups/new").headers["Location"] ?? ""
    }

    @Test func afterDeletionNoTableNamesTheMemberButThePaymentsKept() throws {
        let site = try TestSite()
        let jun = site.people("jun")[0]
        let quokka = site.browser()
        // A member with a profile that names them in every way
        #expect(quokka.signUp(username: "quokka", email: "quokka.kim@example.com", displayName: "Quokka Kimchi",
                              extra: [("birth_year", "1957"), ("job", "office"), ("region", "seoul"), ("marketing", "yes")]).status == .seeOther)
        let quokkaID = try #require(try site.database.accounts.user(username: "quokka")).storedID
        // A verified workplace
        let hash = { @Sendable (code: String) in WorkAddress.codeHash(code, userID: quokkaID) }
        try site.database.profiles.startWorkplaceCheck(userID: quokkaID, domain: "quokkaworks.co.kr", addressHash: Crypto.sha256(Array("q@quokkaworks.co.kr".utf8)),
                                                       codeHash: hash("123456"), expiresAt: Date().addingTimeInterval(600), now: Date())
        #expect(try site.database.profiles.confirmWorkplace(userID: quokkaID, codeHash: hash("123456"), now: Date()) == .verified(domain: "quokkaworks.co.kr"))

        // Posts with a photo and a mention, comments, likes, follows, blocks, bookmarks
        let posted = quokka.postMultipart("/posts", [("body", "Sunrise with @jun #한강")], files: [("photos", "run.jpg", try fixture("gps.jpg"))], from: "/posts/new")
        let post = try #require(posted.headers["Location"])
        quokka.post(post + "/comments", [("body", "Was here at dawn")], from: post)
        let junsPost = try #require(jun.post("/posts", [("body", "Long run today")], from: "/posts/new").headers["Location"])
        quokka.post(junsPost + "/comments", [("body", "Nice one")], from: junsPost)
        quokka.post(junsPost + "/like", [], from: junsPost)
        quokka.post(junsPost + "/bookmark", [], from: junsPost)
        quokka.post("/u/jun/follow", [], from: "/u/jun")
        jun.post("/u/quokka/follow", [], from: "/u/quokka")
        // Crews: one of jun's (with a guestbook entry and talk), and one of their own that closes
        let junsCrew = try #require(jun.startCrew("Dawn Runners"))
        quokka.post(junsCrew + "/join", [], from: junsCrew)
        quokka.post(junsCrew + "/comments", [("body", "Hello, runners")], from: junsCrew)
        let crewID = try #require(try site.database.crews.crew(slug: "dawn-runners")?.id)
        let room = Paths.talkRoom(try #require(try site.database.talk.crewRoom(crewID: crewID)).storedID)
        #expect(quokka.post(room, [("body", "Hi all, see you Saturday")], from: room).status == .seeOther)
        let direct = try #require(quokka.post("/u/jun/talk", [], from: "/u/jun").headers["Location"])
        quokka.post(direct, [("body", "A direct word")], from: direct)
        #expect(quokka.startCrew("Quokka Solo") != nil)
        // Meetups: one of jun's they go to, one they host that jun goes to
        let junsMeetup = hostMeetup(jun, title: "Jun's 10K")
        quokka.post(junsMeetup + "/apply", [], from: junsMeetup)
        let hosted = hostMeetup(quokka, title: "Hill repeats")
        jun.post(hosted + "/apply", [], from: hosted)
        // A run, settings, a second factor, a report, a block
        quokka.postMultipart("/records", [("distance", "10.5"), ("duration", "55:00"), ("elevation", ""),
                                          ("started_at", LocalDateTime.text(Date().addingTimeInterval(-3_600), .current)), ("note", "Tempo run"),
                                          ("visibility", "public"), ("meetup", "")], files: [], from: "/records/new")
        quokka.post("/settings/talk", [("who_may_start", "crewmates")], from: "/settings")
        quokka.post("/settings/two-factor/setup", [], from: "/settings/two-factor")
        quokka.post("/u/jun/block", [], from: "/u/jun")
        quokka.post("/u/jun/block", [], from: "/u/jun")
        quokka.post("/reports", [("target_type", "post"), ("target_id", String(junsPost.split(separator: "/").last ?? "")), ("reason", "spam"),
                                 ("return_to", junsPost)], from: junsPost)
        let needles = ["quokka", "quokka.kim@example.com", "Quokka Kimchi", "1957", "quokkaworks"]
        #expect(try !rowsNaming("quokka", in: site.database).isEmpty)

        // Delete: the page says what happens; keep the posts, under "deleted member"
        let page = quokka.get("/settings/delete").bodyText
        #expect(page.contains("cannot be brought back") && page.contains(#"name="password""#))
        let deleted = quokka.post("/settings/delete", [("content", "keep"), ("password", "correct horse battery")], from: "/settings/delete")
        #expect(deleted.status == .seeOther && deleted.headers["Location"] == "/")
        #expect(deleted.headers.values("Set-Cookie").contains { $0.hasPrefix("moim_session=;") || $0.contains("Max-Age=0") })
        #expect(quokka.get("/settings").status == .seeOther, "signed out")
        // A failed sign-in as the deleted member writes nothing of them back
        #expect(site.browser().logIn("quokka").status == .unprocessableContent)
        #expect(site.browser().logIn("quokka.kim@example.com").status == .unprocessableContent)

        for needle in needles {
            let naming = try rowsNaming(needle, in: site.database)
            #expect(naming.allSatisfy { $0.hasPrefix("payments.") }, "\(needle): \(naming)")
        }
        // What others need kept its place, without the person (what they wrote stays as written:
        // the texts above name nobody)
        let kept = jun.get(post).bodyText
        #expect(kept.contains("Sunrise with") && kept.contains("Deleted member") && !kept.contains("Quokka"))
        #expect(jun.get("/u/quokka").status == .notFound)
        #expect(!jun.get("/search?q=deleted").bodyText.contains("/u/" + AccountStore.deletedMemberUsername), "nobody to find")
        #expect(jun.get("/u/" + AccountStore.deletedMemberUsername).status == .gone)
        #expect(jun.get(room).bodyText.contains("Hi all, see you Saturday"))
        // The meetup they hosted is cancelled, and jun was told
        #expect(jun.get("/notifications").bodyText.contains("cancelled a meetup you signed up for: 호스트가 탈퇴해"))
        #expect(jun.get(hosted).bodyText.contains("The host cancelled this meetup."))
        // Their own crew is gone; jun's stays
        #expect(site.browser().get("/crews/quokka-solo").status == .notFound)
        #expect(site.browser().get(junsCrew).status == .ok)
        // The media folder holds nothing named for them (file names are random) and the photo stays with the post
        let files = try FileManager.default.contentsOfDirectory(atPath: site.app.configuration.mediaDirectory)
        #expect(!files.isEmpty && files.allSatisfy { !$0.lowercased().contains("quokka") })
    }

    @Test func deletingWithTheContentTakesPostsAndPhotosToo() throws {
        let site = try TestSite()
        let mina = site.people("mina")[0]
        let posted = mina.postMultipart("/posts", [("body", "Gone soon")], files: [("photos", "run.jpg", try fixture("gps.jpg"))], from: "/posts/new")
        let post = try #require(posted.headers["Location"])
        let media = site.app.configuration.mediaDirectory
        #expect(try !FileManager.default.contentsOfDirectory(atPath: media).isEmpty)
        #expect(mina.post("/settings/delete", [("content", "delete"), ("password", "correct horse battery")], from: "/settings/delete").status == .seeOther)
        #expect(site.browser().get(post).status == .notFound)
        #expect(try FileManager.default.contentsOfDirectory(atPath: media).filter { !$0.hasPrefix(".") }.isEmpty)
    }

    @Test func theWrongPasswordAForgedFormOrACrewOthersAreInStopIt() throws {
        let site = try TestSite()
        let (mina, jun) = { let people = site.people("mina", "jun"); return (people[0], people[1]) }()
        let crew = try #require(mina.startCrew("Dawn Runners"))
        jun.post(crew + "/join", [], from: crew)

        // Owning a crew others are in: the page links to handing it over and offers no form
        let page = mina.get("/settings/delete").bodyText
        #expect(page.contains("Make another member the owner first") && page.contains(#"href="/crews/dawn-runners/members""#))
        #expect(!page.contains(#"action="/settings/delete""#))
        #expect(mina.post("/settings/delete", [("content", "keep"), ("password", "correct horse battery")], from: "/settings").status == .conflict)

        // Alone again, a wrong password, a missing choice, a forged form: nothing changes
        jun.post(crew + "/leave", [], from: crew)
        let wrong = mina.post("/settings/delete", [("content", "keep"), ("password", "not my password")], from: "/settings/delete")
        #expect(wrong.status == .unprocessableContent && wrong.bodyText.contains("That password is not right."))
        #expect(mina.post("/settings/delete", [("password", "correct horse battery")], from: "/settings/delete").status == .badRequest)
        #expect(mina.post("/settings/delete", [("content", "nuke"), ("password", "correct horse battery")], from: "/settings/delete").status == .badRequest)
        #expect(mina.post("/settings/delete", [("content", "keep"), ("password", "correct horse battery")], withoutToken: ()).status == .forbidden)
        #expect(site.browser().post("/settings/delete", [("content", "keep")], from: "/").status == .seeOther, "a visitor is sent to sign in")
        #expect(try site.database.accounts.user(username: "mina") != nil)
        // Guessing is throttled like signing in
        for _ in 0..<4 { mina.post("/settings/delete", [("content", "keep"), ("password", "guess")], from: "/settings/delete") }
        #expect(mina.post("/settings/delete", [("content", "keep"), ("password", "correct horse battery")], from: "/settings/delete").status == .tooManyRequests)
        #expect(try site.database.accounts.user(username: "mina") != nil)
        // Nobody can sign up as the deleted member's account
        #expect(site.browser().signUp(username: AccountStore.deletedMemberUsername).status == .unprocessableContent)
    }
}
