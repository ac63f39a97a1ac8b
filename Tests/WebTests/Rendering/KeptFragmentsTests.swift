import CompiledHTML
import Foundation
import HTTP
import Storage
import Testing
@testable import Web

/// Post cards and comments keep their bylines and bodies rendered between requests
/// (`FragmentCache`). What a reader sees must still be what the database says, at once, on
/// this server and on another sharing the database: an edit, a renamed author, a hidden
/// comment, another language.
@Suite struct KeptFragmentsTests {
    @Test func cardsShowEveryChangeOnEveryServerAtOnce() throws {
        let site = try TestSite()
        let other = try TestSite(database: site.database)
        let mina = site.browser(), jun = site.browser(), moddy = site.browser()
        mina.signUp(username: "mina", displayName: "Mina Kim")
        jun.signUp(username: "jun", displayName: "Jun Park")
        moddy.signUp(username: "moddy", displayName: "Moddy")
        _ = try site.database.accounts.setRole(.moderator, username: "moddy")
        moddy.logIn("moddy")
        jun.post("/u/mina/follow", [], from: "/u/mina")
        let post = try #require(mina.post("/posts", [("body", "Easy 5K by the river")], from: "/posts/new").headers["Location"])
        jun.post(post + "/comments", [("body", "See you there")], from: post)
        // Jun reads through the other server too, with the same session.
        let junThere = other.browser()
        junThere.cookies = jun.cookies
        let pages = { (browser: Browser) in (feed: browser.get("/").bodyText, post: browser.get(post).bodyText) }
        for browser in [jun, junThere] {
            let seen = pages(browser)
            #expect(seen.feed.contains("Easy 5K by the river") && seen.post.contains("Jun Park") && seen.post.contains("See you there"))
        }

        // Jun renames himself on this server; the other shows the new name on his comment.
        #expect(jun.post("/settings", [
            ("display_name", "Jun the Pacer"), ("bio", ""), ("gender", ""), ("birth_year", ""), ("job", ""), ("region", ""), ("language", "en"),
        ]).status == .seeOther)
        for browser in [jun, junThere] {
            let thread = browser.get(post).bodyText
            #expect(thread.contains("Jun the Pacer") && !thread.contains("Jun Park"))
        }
        // Mina edits the post: both servers' feeds show the new text, marked edited.
        mina.post(post + "/edit", [("body", "Easy 5K by the river, then coffee")], from: post + "/edit")
        for browser in [jun, junThere] {
            let feed = browser.get("/").bodyText
            #expect(feed.contains("then coffee") && feed.contains("· edited"))
        }
        // A moderator hides Jun's comment: readers see the placeholder, Jun the note.
        let postID = try #require(Int64(post.split(separator: "/").last ?? ""))
        let comment = try #require(try site.database.comments.thread(postID: postID).first?.comment.id)
        #expect(moddy.post("/admin/moderate", [("action", "hide"), ("target_type", "comment"), ("target_id", String(comment)), ("reason", "rule 3")],
                           from: "/admin/reports").status == .seeOther)
        let reader = other.browser()
        #expect(reader.get(post).bodyText.contains("[hidden by moderators]"))
        #expect(!reader.get(post).bodyText.contains("See you there"))
        #expect(junThere.get(post).bodyText.contains("Hidden by moderators: only you and the staff can see this."))
        // The same card in Korean is in Korean.
        let korean = other.browser(language: "ko")
        let page = korean.get(post).bodyText
        #expect(page.contains("수정됨") && !page.contains("· edited"))
    }

    /// The kept parts stay within their budget: past it, the older half goes.
    @Test func keptFragmentsAreBounded() throws {
        let cache = FragmentCache<Int>(limit: 10_000)
        var writer = HTMLWriter(.en)
        writer.raw(String(repeating: "x", count: 1_000))
        let fragment = HTMLFragment(writer)
        var renders = 0
        for id in 0..<100 {
            _ = cache.fragments(.init(id: Int64(id), language: 0), id) {
                renders += 1
                return .init(byline: fragment, content: fragment)
            }
        }
        #expect(renders == 100 && cache.bytes <= 2 * 10_000 + 2_000)
        // A kept item from the same source is not rendered again; a changed source is.
        _ = cache.fragments(.init(id: 99, language: 0), 99) { renders += 1; return .init(byline: fragment, content: fragment) }
        #expect(renders == 100)
        _ = cache.fragments(.init(id: 99, language: 0), -1) { renders += 1; return .init(byline: fragment, content: fragment) }
        #expect(renders == 101)
    }
}
