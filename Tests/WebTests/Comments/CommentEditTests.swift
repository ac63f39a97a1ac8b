import Foundation
import HTTP
import Testing
@testable import Web

/// A member edits and deletes their own comments, and no one else's.
@Suite struct CommentEditTests {
    private func commented(_ site: TestSite) throws -> (mina: Browser, jun: Browser, post: String, edit: String) {
        let people = site.members("mina", "jun")
        let post = try #require(people[0].post("/posts", [("body", "Long run Sunday")], from: "/posts/new").headers["Location"])
        #expect(people[1].post(post + "/comments", [("body", "Count me in")], from: post).status == .seeOther)
        let edit = try #require(people[1].get(post).bodyText.firstMatch(of: /href="(\/comments\/\d+\/edit)"/)?.1)
        return (people[0], people[1], post, String(edit))
    }

    @Test func anAuthorEditsTheirCommentAndTheThreadShowsTheNewText() throws {
        let site = try TestSite()
        let (_, jun, post, edit) = try commented(site)
        // Given the edit form, holding the comment
        let form = jun.get(edit)
        #expect(form.status == .ok)
        #expect(form.bodyText.contains("Count me in"))
        // When it is sent empty, then with new text
        let empty = jun.post(edit, [("body", "   ")], from: edit)
        #expect(empty.status == .unprocessableContent)
        let saved = jun.post(edit, [("body", "Count me in, **7 am**")], from: edit)
        // Then the thread shows the new text, rendered
        #expect(saved.status == .seeOther)
        #expect(saved.headers["Location"]?.hasPrefix(post) == true)
        #expect(jun.get(post).bodyText.contains("<strong>7 am</strong>"))
    }

    @Test func onlyTheAuthorMayEditOrDeleteAndADeletedCommentLeavesTheThread() throws {
        let site = try TestSite()
        let (mina, jun, post, edit) = try commented(site)
        let delete = edit.replacingOccurrences(of: "/edit", with: "/delete")
        // The post's author is not the comment's: 404 both ways, and the comment stays
        #expect(mina.get(edit).status == .notFound)
        #expect(mina.post(edit, [("body", "changed")], from: post).status == .notFound)
        #expect(mina.post(delete, [], from: post).status == .notFound)
        #expect(mina.get(post).bodyText.contains("Count me in"))
        // The author deletes it: it is gone, and it cannot be edited any more
        #expect(jun.post(delete, [], from: post).headers["Location"] == post + "#comments")
        #expect(!jun.get(post).bodyText.contains("Count me in"))
        #expect(jun.get(edit).status == .notFound)
        #expect(jun.get("/comments/99999999999999999999/edit").status == .notFound)
    }
}
