import Foundation
import Testing
import HTTP
import Storage
@testable import Web

/// Writing, editing and deleting a post, with its photos.
@Suite struct PostTests {
    @Test func aRefusedUploadLeavesNothingBehind() throws {
        let configuration = TestSite.configuration()
        let site = try TestSite(configuration: configuration)
        let mina = site.browser()
        mina.signUp(username: "mina")
        let refused = mina.postMultipart("/posts", [("body", "look")], files: [
            ("photos", "fine.jpg", try fixture("gps.jpg")), ("photos", "notes.jpg", try fixture("not-an-image.jpg")),
        ], from: "/posts/new")
        #expect(refused.status == .unprocessableContent)
        #expect(refused.bodyText.contains("notes.jpg: This file is not a JPEG, PNG, WebP, GIF, HEIC or AVIF image."))
        #expect(refused.bodyText.contains(">look</textarea>"))
        #expect(try site.database.feed.publicFeed(before: nil, viewerID: nil).items.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: configuration.mediaDirectory).isEmpty)
    }
    @Test func anOversizedPhotoIsRefused() throws {
        let site = try TestSite()
        let mina = site.browser()
        mina.signUp(username: "mina")
        var big = try fixture("gps.jpg")
        big += [UInt8](repeating: 0, count: 11 * 1024 * 1024)
        let refused = mina.postMultipart("/posts", [("body", "big")], files: [("photos", "huge.jpg", big)], from: "/posts/new")
        #expect(refused.status == .unprocessableContent)
        #expect(refused.bodyText.contains("huge.jpg: This photo is larger than 10 MB."))
        let eleven = (0..<11).map { ("photos", "p\($0).jpg", (try? fixture("gps.jpg")) ?? []) }
        let tooMany = mina.postMultipart("/posts", [("body", "many")], files: eleven, from: "/posts/new")
        #expect(tooMany.bodyText.contains("Attach at most 10 photos."))
        #expect(try site.database.feed.publicFeed(before: nil, viewerID: nil).items.isEmpty)
    }
    @Test func onlyTheAuthorMayEditOrDeleteAPost() throws {
        let site = try TestSite()
        let mina = site.browser(), jun = site.browser()
        mina.signUp(username: "mina")
        jun.signUp(username: "jun")
        let postURL = try #require(mina.post("/posts", [("body", "mine")], from: "/posts/new").headers["Location"])
        #expect(jun.get(postURL + "/edit").status == .notFound)
        #expect(jun.post(postURL + "/delete", [], from: postURL).status == .notFound)
        #expect(mina.post(postURL + "/edit", [("body", "mine, edited")], from: postURL + "/edit").status == .seeOther)
        #expect(jun.get(postURL).bodyText.contains("mine, edited"))
        #expect(mina.post(postURL + "/delete", [], from: postURL).status == .seeOther)
        #expect(jun.get(postURL).status == .notFound)
    }
    @Test func aPostsTitleAndHeadingAreItsWordsNotItsMarkdown() throws {
        let site = try TestSite()
        let mina = site.members("mina")[0]
        let url = try #require(mina.post("/posts", [("body", "**Bold finish** at [Yeouido](https://example.com/y) `5:01`\n\n<b>raw</b> and _more_")],
                                         from: "/posts/new").headers["Location"])
        let page = mina.get(url).bodyText
        // The tags of raw HTML are left out, as on the page; the words between them stay
        #expect(page.contains("<title>Bold finish at Yeouido 5:01 raw and more · Moim</title>"))
        #expect(page.contains(#"<h1 class="visually-hidden">Bold finish at Yeouido 5:01 raw and more</h1>"#))
        #expect(!page.contains("<title>**Bold"))
    }

    @Test func scriptInAPostIsInert() throws {
        let site = try TestSite()
        let mina = site.browser()
        mina.signUp(username: "mina")
        let url = try #require(mina.post("/posts", [("body", "<script>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror=alert(1)>")],
                                         from: "/posts/new").headers["Location"])
        let page = mina.get(url).bodyText
        #expect(!page.contains("<script>alert"))
        #expect(!page.contains("href=\"javascript:"))
        #expect(!page.contains("onerror=alert"))
    }
}
