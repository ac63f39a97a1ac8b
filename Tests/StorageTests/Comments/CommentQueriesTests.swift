import Foundation
import Testing
import TestSupport
@testable import Storage

@Suite struct CommentQueriesTests {
    let now = Date(timeIntervalSince1970: 1_795_809_600)

    func content(_ body: String, mentioning ids: [Int64] = []) -> PostContent {
        PostContent(body: body, bodyHTML: "<p>\(body)</p>", tags: [], mentionedUserIDs: ids)
    }

    /// Notification kinds each member has, by id.
    func kinds(_ database: AppDatabase, _ userID: Int64) throws -> [Storage.Notification.Kind] {
        try database.feed.notifications(userID: userID).items.map(\.notification.kind)
    }

    @Test func eachPersonIsToldOnceOfAReply() throws {
        // Given mina's post, a comment by jun, and ara replying to jun mentioning mina and jun
        let database = try TestDatabase.fresh()
        let ids = try database.members("mina", "jun", "ara")
        let post = try database.posts.createPost(authorID: ids[0], content: content("Long run"), photos: [], now: now)
        let first = try database.comments.addComment(postID: post.storedID, authorID: ids[1], parentID: nil, content: content("Great"), now: now)
        _ = try database.comments.addComment(postID: post.storedID, authorID: ids[2], parentID: first.storedID,
                                             content: content("@jun @mina me too", mentioning: [ids[0], ids[1]]), now: now)
        // Then jun hears of the reply once, mina of two comments once each, nobody of a mention on top
        #expect(try kinds(database, ids[1]) == [.reply])
        #expect(try kinds(database, ids[0]) == [.comment, .comment])
        #expect(try kinds(database, ids[2]).isEmpty)
    }

    @Test func aReplyNestsUnderItsParentOnTheSamePostAndNoDeeperThanTheLimit() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("mina", "jun")
        let post = try database.posts.createPost(authorID: ids[0], content: content("Post"), photos: [], now: now)
        let other = try database.posts.createPost(authorID: ids[0], content: content("Other"), photos: [], now: now)
        var parent = try database.comments.addComment(postID: post.storedID, authorID: ids[1], parentID: nil, content: content("0"), now: now)
        for level in 1...(Comment.maximumDepth + 2) {
            parent = try database.comments.addComment(postID: post.storedID, authorID: ids[1], parentID: parent.storedID, content: content("\(level)"), now: now)
        }
        #expect(parent.depth == Comment.maximumDepth)
        // A reply to a comment of another post is refused
        #expect(throws: StorageError.notFound) {
            try database.comments.addComment(postID: other.storedID, authorID: ids[1], parentID: parent.storedID, content: content("x"), now: now)
        }
    }

    @Test func onlyTheAuthorEditsAndDeletesAndADeletedCommentWithRepliesStaysAsAPlaceholder() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("mina", "jun")
        let post = try database.posts.createPost(authorID: ids[0], content: content("Post"), photos: [], now: now)
        let comment = try database.comments.addComment(postID: post.storedID, authorID: ids[1], parentID: nil, content: content("First"), now: now)
        let reply = try database.comments.addComment(postID: post.storedID, authorID: ids[0], parentID: comment.storedID, content: content("Reply"), now: now)
        #expect(throws: StorageError.notFound) { try database.comments.editComment(id: comment.storedID, authorID: ids[0], content: content("Mine now"), now: now) }
        #expect(throws: StorageError.notFound) { try database.comments.deleteComment(id: comment.storedID, authorID: ids[0], now: now) }
        let edited = try database.comments.editComment(id: comment.storedID, authorID: ids[1], content: content("First, edited"), now: now)
        #expect(edited.body == "First, edited" && edited.updatedAt == now)

        // When jun deletes his comment, which has a reply
        try database.comments.deleteComment(id: comment.storedID, authorID: ids[1], now: now)
        // Then it stays, emptied, under the reply; a comment without replies goes entirely
        let kept = try #require(try database.comments.comment(id: comment.storedID))
        #expect(kept.deletedAt != nil && kept.body.isEmpty)
        try database.comments.deleteComment(id: reply.storedID, authorID: ids[0], now: now)
        #expect(try database.comments.comment(id: reply.storedID) == nil)
        #expect(try database.feed.feedItem(postID: post.storedID, viewerID: nil)?.post.commentCount == 0)
    }
}
