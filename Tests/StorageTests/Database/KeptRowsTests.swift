import Foundation
import Testing
import TestSupport
@testable import Storage

/// Feeds and threads keep posts and comments decoded while their revision stands
/// (`KeptRows`). Another server sharing the database keeps its own: whatever one writes, the
/// other must show on its next read.
@Suite struct KeptRowsTests {
    /// Two servers' databases on one store, each with its own kept rows.
    private func twoServers() throws -> (AppDatabase, AppDatabase) {
        if TestDatabase.onPostgres {
            let url = try TestDatabase.freshPostgresURL()
            return (try AppDatabase.open(postgres: url, connections: 2), try AppDatabase.open(postgres: url, connections: 2))
        }
        let directory = NSTemporaryDirectory() + "moim-kept-\(UUID().uuidString)"
        return (try AppDatabase.open(directory: directory), try AppDatabase.open(directory: directory))
    }

    private func content(_ text: String) -> PostContent {
        PostContent(body: text, bodyHTML: "<p>\(text)</p>", tags: [], mentionedUserIDs: [])
    }

    @Test func whatOneServerWritesTheOtherShowsAtOnce() throws {
        let (here, there) = try twoServers()
        defer { try? here.close(); try? there.close() }
        let mina = try here.accounts.createUser(User(username: "mina", email: "mina@example.com", passwordHash: "x", displayName: "Mina")).storedID
        let jun = try here.accounts.createUser(User(username: "jun", email: "jun@example.com", passwordHash: "x", displayName: "Jun")).storedID
        let post = try here.posts.createPost(authorID: mina, content: content("Easy 5K"), photos: []).storedID
        let comment = try here.comments.addComment(postID: post, authorID: jun, parentID: nil, content: content("See you")).storedID
        let read = { () throws -> (item: FeedItem?, thread: [ThreadComment]) in
            (try there.feed.feedItem(postID: post, viewerID: jun), try there.comments.thread(postID: post, viewerID: jun))
        }
        #expect(try read().item?.post.bodyHTML == "<p>Easy 5K</p>" && read().thread.first?.comment.bodyHTML == "<p>See you</p>")

        // Counts, an edit, a renamed author, an edited comment: each shows there on the next read.
        try here.posts.like(postID: post, userID: jun)
        #expect(try read().item?.post.likeCount == 1 && read().item?.likedByViewer == true)
        _ = try here.posts.updatePost(id: post, authorID: mina, content: content("Easy 5K, then coffee"))
        let edited = try read().item
        #expect(edited?.post.bodyHTML == "<p>Easy 5K, then coffee</p>" && edited?.post.updatedAt != nil)
        _ = try here.profiles.updateProfile(userID: jun, ProfileChanges(displayName: "Jun the Pacer", bio: "", gender: nil, birthYear: nil, job: nil, region: nil, language: nil))
        #expect(try read().thread.first?.author.displayName == "Jun the Pacer")
        _ = try here.comments.editComment(id: comment, authorID: jun, content: content("See you at six"))
        #expect(try read().thread.first?.comment.bodyHTML == "<p>See you at six</p>")
        #expect(try read().item?.post.commentCount == 1)
        _ = try here.comments.deleteComment(id: comment, authorID: jun)
        #expect(try read().thread.isEmpty)
    }

    @Test func aNewPostWithTheIdOfADeletedOneIsNotTakenForIt() throws {
        let (here, there) = try twoServers()
        defer { try? here.close(); try? there.close() }
        let mina = try here.accounts.createUser(User(username: "mina", email: "mina@example.com", passwordHash: "x", displayName: "Mina")).storedID
        let first = try here.posts.createPost(authorID: mina, content: content("first"), photos: []).storedID
        #expect(try there.feed.publicFeed(before: nil, viewerID: nil).items.map(\.post.bodyHTML) == ["<p>first</p>"])
        _ = try here.posts.deletePost(id: first, authorID: mina)
        // SQLite gives the next post the newest deleted id again.
        _ = try here.posts.createPost(authorID: mina, content: content("second"), photos: [])
        #expect(try there.feed.publicFeed(before: nil, viewerID: nil).items.map(\.post.bodyHTML) == ["<p>second</p>"])
    }

    @Test func photosAddedOrRemovedChangeThePostsRevision() throws {
        let (here, there) = try twoServers()
        defer { try? here.close(); try? there.close() }
        let mina = try here.accounts.createUser(User(username: "mina", email: "mina@example.com", passwordHash: "x", displayName: "Mina")).storedID
        let photo = NewPhoto(fileName: "a.jpg", mediaType: "image/jpeg", width: 4, height: 3, byteCount: 10)
        let post = try here.posts.createPost(authorID: mina, content: content("with a photo"), photos: [photo]).storedID
        #expect(try there.feed.feedItem(postID: post, viewerID: nil)?.photos.map(\.fileName) == ["a.jpg"])
        try here.write { db in try db.execute("DELETE FROM photos WHERE postID = ?", [post]) }
        #expect(try there.feed.feedItem(postID: post, viewerID: nil)?.photos.isEmpty == true)
    }

    /// On PostgreSQL a server keeps a signed-in member's session between pages (no round trip)
    /// and drops it as soon as another server signs the member out, through `LISTEN`; not a
    /// second later, when it would go stale anyway.
    @Test(.enabled(if: TestDatabase.onPostgres)) func aKeptSessionGoesWhenAnotherServerSignsTheMemberOut() throws {
        let (here, there) = try twoServers()
        defer { try? here.close(); try? there.close() }
        let mina = try here.accounts.createUser(User(username: "mina", email: "mina@example.com", passwordHash: "x", displayName: "Mina")).storedID
        let token = Data(repeating: 7, count: 32)
        let session = try here.sessions.createSession(userID: mina, tokenHash: token, csrfToken: "c")
        let lifetime = SessionLifetime()
        #expect(try there.sessions.session(tokenHash: token, lifetime: lifetime)?.user.id == mina)
        let kept = Date()
        let reads = there.timings.reads.count
        #expect(try there.sessions.session(tokenHash: token, lifetime: lifetime)?.user.id == mina)
        #expect(there.timings.reads.count == reads, "the second page read the session again")

        let heard = DispatchSemaphore(value: 0)
        there.listen { changes in if changes.contains(.member(userID: mina)) { heard.signal() } }
        try here.sessions.deleteSession(id: try #require(session.id))
        #expect(heard.wait(timeout: .now() + 5) == .success)
        #expect(try there.sessions.session(tokenHash: token, lifetime: lifetime) == nil)
        #expect(Date().timeIntervalSince(kept) < 1, "too slow to tell the notification from the kept session's second")
    }
}
