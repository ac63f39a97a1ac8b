import Foundation
import GRDB

/// Feeds are pages of posts, newest first. A page ends where the next begins: the cursor is
/// the id of the last post shown, and the next page holds posts with smaller ids, so posts
/// written meanwhile neither repeat nor push anything out of sight (they appear on top).
extension AppDatabase {
    /// Posts by the people `userID` follows, their own, and posts in their crews.
    public func homeFeed(userID: Int64, before cursor: Int64?, limit: Int = 20) throws -> FeedPage {
        try reader.read { db in
            // The member's timeline (see `Migrations.createTimelines`), each row's reason
            // checked again: their own post, someone they follow, a crew they are in.
            let posts = try Post.fetchAll(db.cachedStatement(sql: """
                SELECT posts.* FROM timeline JOIN posts ON posts.id = timeline.postID
                WHERE timeline.userID = ?1 AND timeline.postID < ?2
                  AND (posts.authorID = ?1
                       OR EXISTS (SELECT 1 FROM follows WHERE followerID = ?1 AND followeeID = posts.authorID)
                       OR EXISTS (SELECT 1 FROM crewMembers WHERE crewID = posts.crewID AND userID = ?1 AND role != 'pending'))
                ORDER BY timeline.postID DESC LIMIT ?3
                """), arguments: [userID, cursor ?? Int64.max, limit + 1])
            return try page(db, posts: posts, limit: limit, viewerID: userID)
        }
    }

    /// Everyone's posts.
    public func publicFeed(before cursor: Int64?, limit: Int = 20, viewerID: Int64?) throws -> FeedPage {
        try reader.read { db in
            let posts = try Post.fetchAll(db.cachedStatement(sql: "SELECT * FROM posts WHERE id < ? ORDER BY id DESC LIMIT ?"),
                                          arguments: [cursor ?? Int64.max, limit + 1])
            return try page(db, posts: posts, limit: limit, viewerID: viewerID)
        }
    }

    /// Posts carrying `tag` (already normalised).
    public func tagFeed(tag: String, before cursor: Int64?, limit: Int = 20, viewerID: Int64?) throws -> FeedPage {
        try reader.read { db in
            let posts = try Post.fetchAll(db.cachedStatement(sql: """
                SELECT posts.* FROM postTags JOIN posts ON posts.id = postTags.postID
                WHERE postTags.tag = ? AND postTags.postID < ? ORDER BY postTags.postID DESC LIMIT ?
                """), arguments: [tag, cursor ?? Int64.max, limit + 1])
            return try page(db, posts: posts, limit: limit, viewerID: viewerID)
        }
    }

    /// One member's posts.
    public func userPosts(userID: Int64, before cursor: Int64?, limit: Int = 20, viewerID: Int64?) throws -> FeedPage {
        try reader.read { db in
            let posts = try Post.fetchAll(db.cachedStatement(sql: "SELECT * FROM posts WHERE authorID = ? AND id < ? ORDER BY id DESC LIMIT ?"),
                                          arguments: [userID, cursor ?? Int64.max, limit + 1])
            return try page(db, posts: posts, limit: limit, viewerID: viewerID)
        }
    }

    /// The posts `userID` bookmarked, most recently bookmarked first; the cursor is a bookmark id.
    public func bookmarkedPosts(userID: Int64, before cursor: Int64?, limit: Int = 20) throws -> FeedPage {
        try reader.read { db in
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT posts.*, bookmarks.id AS bookmarkID FROM bookmarks JOIN posts ON posts.id = bookmarks.postID
                WHERE bookmarks.userID = ? AND bookmarks.id < ? ORDER BY bookmarks.id DESC LIMIT ?
                """), arguments: [userID, cursor ?? Int64.max, limit + 1])
            let posts = try rows.prefix(limit).map { try Post(row: $0) }
            let next: Int64? = rows.count > limit ? rows[limit - 1]["bookmarkID"] : nil
            return FeedPage(items: try feedItems(db, posts: posts, viewerID: userID), nextCursor: next)
        }
    }

    private func page(_ db: Database, posts: [Post], limit: Int, viewerID: Int64?) throws -> FeedPage {
        let shown = Array(posts.prefix(limit))
        let next = posts.count > limit ? shown.last?.id : nil
        return FeedPage(items: try feedItems(db, posts: shown, viewerID: viewerID), nextCursor: next)
    }
}
