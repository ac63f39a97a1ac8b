import Foundation

/// Who follows whom, and counts for profiles.
public struct FollowCounts: Sendable, Equatable {
    public var followers: Int
    public var following: Int
    public var posts: Int
}

extension AppDatabase {
    /// Follows `followeeID`; a second follow changes nothing and notifies no one.
    public func follow(followerID: Int64, followeeID: Int64, now: Date = Date()) throws {
        guard followerID != followeeID else { return }
        try write { db in
            if try isBlocked(db, followerID, followeeID) { throw StorageError.forbidden }
            if try db.execute("INSERT INTO follows (followerID, followeeID, createdAt) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", [followerID, followeeID, now]) > 0 {
                try insertNotification(db, userID: followeeID, kind: .follow, actorID: followerID, postID: nil, commentID: nil, now: now)
            }
        }
    }

    public func unfollow(followerID: Int64, followeeID: Int64) throws {
        try write { db in
            try db.execute("DELETE FROM follows WHERE followerID = ? AND followeeID = ?", [followerID, followeeID])
        }
    }

    public func isFollowing(followerID: Int64, followeeID: Int64) throws -> Bool {
        try readRows { connection in
            try connection.fetchOne("SELECT EXISTS (SELECT 1 FROM follows WHERE followerID = ? AND followeeID = ?)", [followerID, followeeID]) {
                try $0.decode(atIndex: 0) as Bool
            } ?? false
        }
    }

    public func followCounts(userID: Int64) throws -> FollowCounts {
        try readRows { connection in
            try connection.fetchOne("""
                SELECT (SELECT count(*) FROM follows WHERE followeeID = ?1),
                       (SELECT count(*) FROM follows WHERE followerID = ?1),
                       (SELECT count(*) FROM posts WHERE authorID = ?1)
                """, [userID]) { row in
                FollowCounts(followers: try row.decode(atIndex: 0), following: try row.decode(atIndex: 1), posts: try row.decode(atIndex: 2))
            } ?? FollowCounts(followers: 0, following: 0, posts: 0)
        }
    }

    /// People following `userID` (`followers: true`) or followed by them, newest first, from a
    /// cursor that is a user id.
    public func follows(of userID: Int64, followers: Bool, after cursor: Int64?, limit: Int = 50) throws -> (users: [User], next: Int64?) {
        try readRows { db in
            let sql = followers
                ? "SELECT users.* FROM follows JOIN users ON users.id = follows.followerID WHERE follows.followeeID = ? AND users.id < ? ORDER BY users.id DESC LIMIT ?"
                : "SELECT users.* FROM follows JOIN users ON users.id = follows.followeeID WHERE follows.followerID = ? AND users.id < ? ORDER BY users.id DESC LIMIT ?"
            let users = try db.records(User.self, sql, [userID, cursor ?? Int64.max, limit + 1])
            return (Array(users.prefix(limit)), users.count > limit ? users[limit - 1].id : nil)
        }
    }
}
