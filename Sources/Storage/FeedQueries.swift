import Foundation
import GRDB

/// Feeds are pages of posts, newest first. A page ends where the next begins: the cursor is
/// the id of the last post shown, and the next page holds posts with smaller ids, so posts
/// written meanwhile neither repeat nor push anything out of sight (they appear on top).
extension AppDatabase {
    /// Above this many followees one scan down the posts beats a query per followee.
    static let followeeQueryLimit = 200

    /// Posts by the people `userID` follows, their own, and posts in their crews.
    public func homeFeed(userID: Int64, before cursor: Int64?, limit: Int = 20) throws -> FeedPage {
        try reader.read { db in
            let before = cursor ?? Int64.max
            let authors = try Int64.fetchAll(db, sql: "SELECT followeeID FROM follows WHERE followerID = ?", arguments: [userID]) + [userID]
            let posts: [Post]
            if authors.count <= Self.followeeQueryLimit {
                // Each author's newest post ids from the (authorID, id) index alone, merged, then
                // one read of the posts shown: the cost follows the number of followees, not
                // the number of posts on the site.
                let statement = try db.cachedStatement(sql: "SELECT id FROM posts WHERE authorID = ? AND id < ? ORDER BY id DESC LIMIT ?")
                var ids: [Int64] = []
                for author in authors {
                    ids += try Int64.fetchAll(statement, arguments: [author, before, limit + 1])
                }
                let crewStatement = try db.cachedStatement(sql: "SELECT id FROM posts WHERE crewID = ? AND id < ? ORDER BY id DESC LIMIT ?")
                for crew in try Int64.fetchAll(db, sql: "SELECT crewID FROM crewMembers WHERE userID = ? AND role != 'pending'", arguments: [userID]) {
                    ids += try Int64.fetchAll(crewStatement, arguments: [crew, before, limit + 1])
                }
                ids = Array(Set(ids))
                let newest = Array(ids.sorted(by: >).prefix(limit + 1))
                posts = try Post.fetchAll(db, keys: newest).sorted { ($0.id ?? 0) > ($1.id ?? 0) }
            } else {
                posts = try Post.fetchAll(db, sql: """
                    SELECT * FROM posts WHERE id < ?1 AND (authorID = ?2 OR authorID IN (SELECT followeeID FROM follows WHERE followerID = ?2)
                        OR crewID IN (SELECT crewID FROM crewMembers WHERE userID = ?2 AND role != 'pending'))
                    ORDER BY id DESC LIMIT ?3
                    """, arguments: [before, userID, limit + 1])
            }
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
            let posts = try Post.fetchAll(db, sql: """
                SELECT posts.* FROM postTags JOIN posts ON posts.id = postTags.postID
                WHERE postTags.tag = ? AND postTags.postID < ? ORDER BY postTags.postID DESC LIMIT ?
                """, arguments: [tag, cursor ?? Int64.max, limit + 1])
            return try page(db, posts: posts, limit: limit, viewerID: viewerID)
        }
    }

    /// One member's posts.
    public func userPosts(userID: Int64, before cursor: Int64?, limit: Int = 20, viewerID: Int64?) throws -> FeedPage {
        try reader.read { db in
            let posts = try Post.fetchAll(db, sql: "SELECT * FROM posts WHERE authorID = ? AND id < ? ORDER BY id DESC LIMIT ?",
                                          arguments: [userID, cursor ?? Int64.max, limit + 1])
            return try page(db, posts: posts, limit: limit, viewerID: viewerID)
        }
    }

    /// The posts `userID` bookmarked, most recently bookmarked first; the cursor is a bookmark id.
    public func bookmarkedPosts(userID: Int64, before cursor: Int64?, limit: Int = 20) throws -> FeedPage {
        try reader.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT bookmarks.id AS bookmarkID, posts.* FROM bookmarks JOIN posts ON posts.id = bookmarks.postID
                WHERE bookmarks.userID = ? AND bookmarks.id < ? ORDER BY bookmarks.id DESC LIMIT ?
                """, arguments: [userID, cursor ?? Int64.max, limit + 1])
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
