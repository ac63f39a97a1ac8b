import Foundation
import GRDB

/// Likes and bookmarks: idempotent, and the like count moves only when a row is really added
/// or removed, in the same transaction, so a double click or two racing requests count once.
extension AppDatabase {
    public func like(postID: Int64, userID: Int64, now: Date = Date()) throws {
        try writer.write { db in
            guard try Post.exists(db, key: postID) else { throw StorageError.notFound }
            try db.execute(sql: "INSERT OR IGNORE INTO likes (postID, userID, createdAt) VALUES (?, ?, ?)", arguments: [postID, userID, now])
            if db.changesCount > 0 {
                try db.execute(sql: "UPDATE posts SET likeCount = likeCount + 1 WHERE id = ?", arguments: [postID])
            }
        }
    }

    public func unlike(postID: Int64, userID: Int64) throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM likes WHERE postID = ? AND userID = ?", arguments: [postID, userID])
            if db.changesCount > 0 {
                try db.execute(sql: "UPDATE posts SET likeCount = likeCount - 1 WHERE id = ?", arguments: [postID])
            }
        }
    }

    public func bookmark(postID: Int64, userID: Int64, now: Date = Date()) throws {
        try writer.write { db in
            guard try Post.exists(db, key: postID) else { throw StorageError.notFound }
            try db.execute(sql: "INSERT OR IGNORE INTO bookmarks (userID, postID, createdAt) VALUES (?, ?, ?)", arguments: [userID, postID, now])
        }
    }

    public func unbookmark(postID: Int64, userID: Int64) throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM bookmarks WHERE postID = ? AND userID = ?", arguments: [postID, userID])
        }
    }
}
