import Foundation
import HTTP
import Storage
import Testing
@testable import Web

/// Pages carry a weak ETag made from what they show: a browser revalidating an unchanged page
/// gets 304 and no body; anything the reader would see changed gives a new tag.
@Suite struct ConditionalRequestTests {
    @Test func aMembersPageIsNeverStoredAndAVisitorsIsAskedAgain() throws {
        let site = try TestSite()
        let mina = site.members("mina")[0]
        // After signing out on a shared phone, Back must find nothing of her in the browser's cache
        for path in ["/", "/settings", "/talk", "/u/mina"] {
            #expect(mina.get(path).headers["Cache-Control"] == "private, no-store", "\(path)")
        }
        let visitor = site.browser()
        #expect(visitor.get("/crews").headers["Cache-Control"] == "private, no-cache")
        mina.post("/logout", [], from: "/")
        #expect(mina.get("/crews").headers["Cache-Control"] == "private, no-cache")
    }

    @Test func anUnchangedPageIsNotSentAgainAndAChangedOneIs() throws {
        let site = try TestSite()
        let people = site.members("mina", "jun")
        let mina = people[0], jun = people[1]
        jun.post("/u/mina/follow", [], from: "/u/mina")
        let post = try #require(mina.post("/posts", [("body", "Tempo run at dawn")], from: "/posts/new").headers["Location"])

        let first = jun.get("/")
        let tag = try #require(first.headers["ETag"])
        #expect(tag.hasPrefix("W/\"") && first.bodyText.contains("Tempo run at dawn"))
        let again = jun.get("/", headers: [("If-None-Match", tag)])
        #expect(again.status == .notModified && again.body.isEmpty)
        #expect(again.headers["ETag"] == tag && again.headers["Cache-Control"] == "private, no-store")
        // Any of a list, and `*`, match; another tag does not.
        #expect(jun.get("/", headers: [("If-None-Match", "W/\"0\", \(tag)")]).status == .notModified)
        #expect(jun.get("/", headers: [("If-None-Match", "\"0\"")]).status == .ok)

        // The same page for someone else (their name, their token) is another page.
        #expect(mina.get("/").headers["ETag"] != tag)
        // Jun likes the post: his own feed changes (the filled heart).
        jun.post(post + "/like", [], from: "/")
        let liked = jun.get("/", headers: [("If-None-Match", tag)])
        #expect(liked.status == .ok && liked.headers["ETag"] != tag && liked.bodyText.contains("♥"))
        // Mina edits it: the post page changes for Jun.
        let postTag = try #require(jun.get(post).headers["ETag"])
        mina.post(post + "/edit", [("body", "Tempo run at dawn, 8 km")], from: post + "/edit")
        let edited = jun.get(post, headers: [("If-None-Match", postTag)])
        #expect(edited.status == .ok && edited.bodyText.contains("8 km"))
        // A page in another language is another page.
        let english = try #require(jun.get(post).headers["ETag"])
        jun.post("/language", [("language", "ko"), ("return_to", post)], from: post)
        #expect(jun.get(post, headers: [("If-None-Match", english)]).status == .ok)
    }

    /// Error pages and answers to forms carry no ETag: only a page as it is answers 304.
    @Test func onlyPagesAnsweringOKHaveATag() throws {
        let site = try TestSite()
        let visitor = site.browser()
        let missing = visitor.get("/posts/999999")
        #expect(missing.status == .notFound && missing.headers["ETag"] == nil)
        #expect(visitor.get("/posts/999999", headers: [("If-None-Match", "*")]).status == .notFound)
        let login = visitor.get("/login")
        #expect(login.headers["ETag"] != nil)
        let refused = visitor.post("/login", [("login", "nobody"), ("password", "wrong password")], from: "/login")
        #expect(refused.status != .notModified && refused.headers["ETag"] == nil)
    }
}
