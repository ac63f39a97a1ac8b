import Foundation

/// Who follows whom, and counts for profiles.
public struct FollowCounts: Sendable, Equatable {
    public var followers: Int
    public var following: Int
    public var posts: Int
}

/// What a member's page shows about them, and how its viewer stands towards them.
/// What a profile counts and how the viewer (`?2`) stands towards the member, after the
/// member's own columns in one row: read by place, as every profile page reads them.
private enum ProfileCounts: SQLColumns {
    enum Columns: Int, SQLColumn {
        case followers, following, posts, attended, attendanceRecorded, viewerFollows, viewerBlocked
    }

    static let selection = SQLSelection(Columns.self, table: "users")

    static let selectList = Columns.selectList { column in
        switch column {
        case .followers: "(SELECT count(*) FROM follows WHERE followeeID = users.id)"
        case .following: "(SELECT count(*) FROM follows WHERE followerID = users.id)"
        case .posts: "(SELECT count(*) FROM posts WHERE authorID = users.id)"
        case .attended: "(SELECT count(*) FROM meetupApplications WHERE userID = users.id AND status = 'accepted' AND attended = TRUE)"
        case .attendanceRecorded: "(SELECT count(*) FROM meetupApplications WHERE userID = users.id AND status = 'accepted' AND attended IS NOT NULL)"
        case .viewerFollows: "EXISTS (SELECT 1 FROM follows WHERE followerID = ?2 AND followeeID = users.id)"
        case .viewerBlocked: "EXISTS (SELECT 1 FROM blocks WHERE blockerID = ?2 AND blockedID = users.id)"
        }
    }
}

public struct MemberProfile: Sendable {
    public var user: User
    public var counts: FollowCounts
    /// Finished meetups they attended, of those where attendance was taken.
    public var attended: Int
    public var attendanceRecorded: Int
    public var viewerFollows: Bool
    public var viewerBlocked: Bool
}

extension ProfileStore {
    /// Follows `followeeID`; a second follow changes nothing and notifies no one.
    public func follow(followerID: Int64, followeeID: Int64, now: Date = Date()) throws {
        guard followerID != followeeID else { return }
        try database.write { db in
            if try database.isBlocked(db, followerID, followeeID) { throw StorageError.forbidden }
            if try db.execute("INSERT INTO follows (followerID, followeeID, createdAt) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", [followerID, followeeID, now]) > 0 {
                try database.insertNotification(db, userID: followeeID, kind: .follow, actorID: followerID, postID: nil, commentID: nil, now: now)
            }
        }
    }

    public func unfollow(followerID: Int64, followeeID: Int64) throws {
        try database.write { db in
            try db.execute("DELETE FROM follows WHERE followerID = ? AND followeeID = ?", [followerID, followeeID])
        }
    }

    /// The member named `username` with what their page counts, and how `viewerID` (nil for a
    /// visitor) stands towards them: one statement, since on PostgreSQL each is a round trip.
    public func memberProfile(username: String, viewerID: Int64?) throws -> MemberProfile? {
        try database.readRows { connection in
            try connection.fetchOne("""
                SELECT \(User.selection.qualified), \(ProfileCounts.selectList) FROM users WHERE username = ?1
                """, [username, viewerID]) { row in
                let column = try row.columns(of: ProfileCounts.self, from: User.selection.count)
                return MemberProfile(
                    user: try User(row: row, startingAt: 0),
                    counts: FollowCounts(followers: try column(.followers), following: try column(.following), posts: try column(.posts)),
                    attended: try column(.attended), attendanceRecorded: try column(.attendanceRecorded),
                    viewerFollows: try column(.viewerFollows), viewerBlocked: try column(.viewerBlocked))
            }
        }
    }

    /// People following `userID` (`followers: true`) or followed by them, newest first, from a
    /// cursor that is a user id.
    public func follows(of userID: Int64, followers: Bool, after cursor: Int64?, limit: Int = 50) throws -> (users: [User], next: Int64?) {
        try database.readRows { db in
            // Ordered and bounded on the follows index's second column, so that a generic plan
            // reads only this member's follows (bounding users.id made PostgreSQL walk every user).
            let sql = followers
                ? "SELECT \(User.selection.qualified) FROM follows JOIN users ON users.id = follows.followerID WHERE follows.followeeID = ? AND follows.followerID < ? ORDER BY follows.followerID DESC LIMIT ?"
                : "SELECT \(User.selection.qualified) FROM follows JOIN users ON users.id = follows.followeeID WHERE follows.followerID = ? AND follows.followeeID < ? ORDER BY follows.followeeID DESC LIMIT ?"
            let users = try db.records(User.self, sql, [userID, cursor ?? Int64.max, limit + 1])
            return (Array(users.prefix(limit)), users.count > limit ? users[limit - 1].id : nil)
        }
    }
}
