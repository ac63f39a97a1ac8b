import Foundation

/// Likes and bookmarks: idempotent, and the like count moves only when a row is really added
/// or removed, in the same transaction, so a double click or two racing requests count once.

extension PostStore {
    public func like(postID: Int64, userID: Int64, now: Date = Date()) throws {
        try database.write { db in
            guard try db.exists(Post.self, id: postID) else { throw StorageError.notFound }
            let added = try db.execute("INSERT INTO likes (postID, userID, createdAt) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", [postID, userID, now])
            if added > 0 {
                try db.execute("UPDATE posts SET likeCount = likeCount + 1 WHERE id = ?", [postID])
            }
        }
    }

    public func unlike(postID: Int64, userID: Int64) throws {
        try database.write { db in
            if try db.execute("DELETE FROM likes WHERE postID = ? AND userID = ?", [postID, userID]) > 0 {
                try db.execute("UPDATE posts SET likeCount = likeCount - 1 WHERE id = ?", [postID])
            }
        }
    }

    public func bookmark(postID: Int64, userID: Int64, now: Date = Date()) throws {
        try database.write { db in
            guard try db.exists(Post.self, id: postID) else { throw StorageError.notFound }
            try db.execute("INSERT INTO bookmarks (userID, postID, createdAt) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", [userID, postID, now])
        }
    }

    public func unbookmark(postID: Int64, userID: Int64) throws {
        try database.write { db in
            try db.execute("DELETE FROM bookmarks WHERE postID = ? AND userID = ?", [postID, userID])
        }
    }
}
