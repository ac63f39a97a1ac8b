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
    @Test func editingAPostRemovesAndAddsPhotos() throws {
        let configuration = TestSite.configuration()
        let site = try TestSite(configuration: configuration)
        let people = site.members("mina", "jun")
        let (mina, jun) = (people[0], people[1])
        let photo = try fixture("gps.jpg")
        let url = try #require(mina.postMultipart("/posts", [("body", "Two views")], files: [("photos", "a.jpg", photo), ("photos", "b.jpg", photo)],
                                                  from: "/posts/new").headers["Location"])
        let postID = try #require(Int64(url.split(separator: "/").last ?? ""))
        let photos = { try site.database.feed.feedItem(postID: postID, viewerID: nil)?.photos ?? [] }
        let media = { Set(try FileManager.default.contentsOfDirectory(atPath: configuration.mediaDirectory)) }
        let (first, second) = (try photos()[0], try photos()[1])
        let before = try media()
        #expect(before.contains(first.fileName) && before.contains(second.fileName))
        // The edit form shows them, each with a box to remove it, and room for eight more
        let form = mina.get(url + "/edit").bodyText
        #expect(form.contains(#"name="remove" value="\#(first.id ?? 0)""#) && form.contains(#"name="photos" type="file""#))

        // Remove the first, add one: the second comes first, the new one after it; the first's file is gone
        let edited = mina.postMultipart(url + "/edit", [("body", "Two views"), ("remove", String(first.id ?? 0))], files: [("photos", "c.jpg", photo)],
                                        from: url + "/edit")
        #expect(edited.status == .seeOther)
        let now = try photos()
        #expect(now.count == 2 && now[0].fileName == second.fileName && now[1].fileName != first.fileName)
        #expect(now.map(\.position) == [0, 1])
        let after = try media()
        #expect(!after.contains(first.fileName) && after.contains(now[1].fileName))
        let page = jun.get(url).bodyText
        #expect(!page.contains(first.fileName) && page.contains(now[1].fileName), "as the post shows, to others too")

        // More than ten in all is refused, and nothing is kept of it
        let nine = (0..<9).map { ("photos", "p\($0).jpg", photo) }
        let tooMany = mina.postMultipart(url + "/edit", [("body", "Two views")], files: nine, from: url + "/edit")
        #expect(tooMany.status == .unprocessableContent && tooMany.bodyText.contains("Attach at most 10 photos."))
        let unchanged = try media()
        #expect(try photos().count == 2 && unchanged == after)
        // Removing every photo of a post with no text is refused
        let empty = mina.postMultipart(url + "/edit", [("body", ""), ("remove", String(now[0].id ?? 0)), ("remove", String(now[1].id ?? 0))],
                                       files: [], from: url + "/edit")
        let stillTwo = try photos().count
        #expect(empty.status == .unprocessableContent && stillTwo == 2)
        // Someone else's photo id is not this post's to remove, and another member cannot edit it
        let junsPost = try #require(jun.postMultipart("/posts", [("body", "Mine")], files: [("photos", "j.jpg", photo)], from: "/posts/new").headers["Location"])
        let junsID = try #require(Int64(junsPost.split(separator: "/").last ?? ""))
        let junsPhoto = try #require(try site.database.feed.feedItem(postID: junsID, viewerID: nil)?.photos.first)
        #expect(mina.postMultipart(url + "/edit", [("body", "Two views"), ("remove", String(junsPhoto.id ?? 0))], files: [], from: url + "/edit").status == .seeOther)
        #expect(try media().contains(junsPhoto.fileName))
        #expect(jun.postMultipart(url + "/edit", [("body", "x"), ("remove", String(now[0].id ?? 0))], files: [], from: url).status == .notFound)
        #expect(try photos().count == 2)
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
