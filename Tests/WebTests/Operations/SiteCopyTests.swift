import Foundation
import HTTP
import Storage
import Testing
import TestSupport
@testable import Web

/// A crew that started on SQLite moves to PostgreSQL with `moim copy` (`AppDatabase.copy`)
/// and finds its site as it left it.
@Suite(.enabled(if: TestSupport.TestDatabase.onPostgres, "copies into PostgreSQL (TEST_DB=postgres)"))
struct SiteCopyTests {
    @Test func aSiteMovedToPostgreSQLServesTheSamePagesToTheSameSessions() throws {
        var configuration = TestSite.configuration()
        let before = try TestSite(configuration: configuration, database: try AppDatabase.inMemory())
        let mina = before.browser(), jun = before.browser()
        mina.signUp(username: "mina")
        jun.signUp(username: "jun")
        #expect(mina.post("/u/jun/follow", [], from: "/u/jun").status == .seeOther)
        #expect(jun.post("/u/mina/follow", [], from: "/u/mina").status == .seeOther)
        let post = try #require(mina.post("/posts", [("body", "새벽 러닝 #한강러닝 with @jun, 10 km")], from: "/posts/new").headers["Location"])
        #expect(jun.post(post + "/like", [], from: post).status == .seeOther)
        #expect(jun.post(post + "/comments", [("body", "잘했어요!")], from: post).status == .seeOther)
        #expect(mina.postMultipart("/crews", [
            ("name", "한강 러닝 크루"), ("slug", ""), ("sport", "running"), ("region", "seoul"), ("description", "We run **every Saturday**."),
            ("meeting_time", "Sat 7:00"), ("meeting_place", "Yeouido"), ("fee_amount", "0"), ("fee_currency", "KRW"),
            ("fee_period", "month"), ("join_policy", "open"), ("member_cap", ""),
        ], files: [], from: "/crews/new").status == .seeOther)
        let pages = ["/", "/explore", "/u/mina", "/u/jun/followers", post, "/tags/한강러닝".addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "",
                     "/crews", "/crews/hangang-leoning-keulu", "/search?q=%EB%9F%AC%EB%8B%9D"]
        _ = mina.get("/")  // the crew's "ready" flash is shown once, here
        let seen = pages.map { (mina.get($0).bodyText, jun.get($0).bodyText) }

        let moved = try AppDatabase.open(postgres: try TestSupport.TestDatabase.freshPostgresURL(), connections: 4)
        let tables = try before.database.copy(to: moved)
        #expect(tables.first { $0.name == "posts" }?.rows == 1)
        #expect(tables.first { $0.name == "users" }?.rows == 2)
        configuration.mediaDirectory = before.app.configuration.mediaDirectory
        let after = try TestSite(configuration: configuration, database: moved)
        let minaAfter = Browser(app: after.app, language: nil, address: "127.0.0.1"), junAfter = Browser(app: after.app, language: nil, address: "127.0.0.1")
        minaAfter.cookies = mina.cookies
        junAfter.cookies = jun.cookies
        for (page, (minaSaw, junSaw)) in zip(pages, seen) {
            #expect(minaAfter.get(page).bodyText == minaSaw, "\(page) for mina")
            #expect(junAfter.get(page).bodyText == junSaw, "\(page) for jun")
        }
        // Ids go on after the copied ones.
        let next = try #require(junAfter.post("/posts", [("body", "After the move")], from: "/posts/new").headers["Location"])
        #expect(next == "/posts/2")
        #expect(throws: CopyError.self) { try before.database.copy(to: moved) }
    }
}
