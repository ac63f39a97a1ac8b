import Foundation
import HTTP
import Testing
@testable import Web

/// Liking and saving a post, and taking either back.
@Suite struct PostReactionsTests {
    @Test func aLikeTakenBackLeavesTheCountWhereItWas() throws {
        // Given Jun likes Mina's post
        let site = try TestSite()
        let people = site.members("mina", "jun")
        let (mina, jun) = (people[0], people[1])
        let post = try #require(mina.post("/posts", [("body", "Tempo run by the river")], from: "/posts/new").headers["Location"])
        #expect(jun.post(post + "/like", [], from: post).status == .seeOther)
        #expect(jun.get(post).bodyText.contains(#"action="\#(post)/unlike""#))
        // When he takes it back, twice (a second tab)
        #expect(jun.post(post + "/unlike", [], from: post).headers["Location"] == post)
        #expect(jun.post(post + "/unlike", [], from: post).status == .seeOther)
        // Then the post counts no like and offers the like again
        let page = jun.get(post).bodyText
        #expect(page.contains(#"action="\#(post)/like""#))
        #expect(!page.contains(#"<span class="count">1</span>"#))
        // And a post id that is not a number is 404
        #expect(jun.post("/posts/1e400/unlike", [], from: post).status == .notFound)
    }

    @Test func savedPostsAreListedUntilTheyAreUnsaved() throws {
        // Given Jun saves Mina's post
        let site = try TestSite()
        let people = site.members("mina", "jun")
        let (mina, jun) = (people[0], people[1])
        let post = try #require(mina.post("/posts", [("body", "Hill repeats on Namsan")], from: "/posts/new").headers["Location"])
        #expect(jun.get("/bookmarks").status == .ok)
        #expect(!jun.get("/bookmarks").bodyText.contains("Hill repeats on Namsan"))
        #expect(jun.post(post + "/bookmark", [], from: post).status == .seeOther)
        // Then his saved list shows it, and only his
        #expect(jun.get("/bookmarks").bodyText.contains("Hill repeats on Namsan"))
        #expect(!mina.get("/bookmarks").bodyText.contains("Hill repeats on Namsan"))
        // When he unsaves it, it leaves the list
        #expect(jun.post(post + "/unbookmark", [("return_to", "/bookmarks")], from: "/bookmarks").headers["Location"] == "/bookmarks")
        #expect(!jun.get("/bookmarks").bodyText.contains("Hill repeats on Namsan"))
        // And a visitor is sent to sign in
        let visitor = site.browser()
        #expect(visitor.get("/bookmarks").headers["Location"]?.hasPrefix("/login") == true)
        #expect(visitor.post(post + "/bookmark", [], from: post).headers["Location"]?.hasPrefix("/login") == true)
    }
}
