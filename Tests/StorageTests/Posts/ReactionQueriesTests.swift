import Foundation
import Testing
import TestSupport
@testable import Storage

/// Likes and bookmarks: once per reader, counted on the post, taken back cleanly.
@Suite struct ReactionQueriesTests {
    @Test func aLikeCountsOnceAndABookmarkListsThePostForItsReaderOnly() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("mina", "jun")
        let (mina, jun) = (ids[0], ids[1])
        let post = try database.posts.createPost(authorID: mina, content: PostContent(body: "Tempo", bodyHTML: "<p>Tempo</p>", tags: [], mentionedUserIDs: []),
                                                 photos: []).storedID
        try database.posts.like(postID: post, userID: jun)
        try database.posts.like(postID: post, userID: jun)
        var item = try #require(try database.feed.feedItem(postID: post, viewerID: jun))
        #expect(item.post.likeCount == 1 && item.likedByViewer)
        try database.posts.unlike(postID: post, userID: jun)
        try database.posts.unlike(postID: post, userID: jun)
        item = try #require(try database.feed.feedItem(postID: post, viewerID: jun))
        #expect(item.post.likeCount == 0 && !item.likedByViewer)
        // Liking a post that does not exist is refused
        #expect(throws: StorageError.notFound) { try database.posts.like(postID: 999_999, userID: jun) }
        // Bookmarks are the reader's own
        try database.posts.bookmark(postID: post, userID: jun)
        #expect(try database.feed.bookmarkedPosts(userID: jun, before: nil).items.map(\.post.id) == [post])
        #expect(try database.feed.bookmarkedPosts(userID: mina, before: nil).items.isEmpty)
        try database.posts.unbookmark(postID: post, userID: jun)
        #expect(try database.feed.bookmarkedPosts(userID: jun, before: nil).items.isEmpty)
    }
}
