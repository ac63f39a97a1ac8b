import Foundation

/// What deleting an account leaves to do once committed, and what it changed for others.
public struct AccountDeletion: Sendable, Equatable {
    /// Photos of the posts and messages deleted with it, for the caller to remove from media.
    public var mediaFiles: [String]
    /// Their data export's file, if one was kept.
    public var exportFile: String?
    /// Upcoming meetups they hosted, called off, whose members were told.
    public var cancelledMeetups: Int
    /// The providers' grants, for the caller to revoke at each provider.
    public var providerGrants: [ProviderGrant]
}

/// A crew that stops an account's deletion: the member owns it and others are in it.
public struct OwnedCrew: Sendable, Equatable {
    public var slug: String
    public var name: String
}

extension AccountStore {
    /// The username of the one account that keeps what deleted members leave behind
    /// (posts, comments and messages others reply to, meetups that happened): it has no
    /// password, no provider, no profile, and cannot be signed up for.
    public static let deletedMemberUsername = "_deleted_"
    static let deletedMemberName = "탈퇴한 회원 · Deleted member"

    /// Crews the member owns that have other members: handed over first.
    public func crewsToHandOver(userID: Int64) throws -> [OwnedCrew] {
        try database.readRows { db in try crewsToHandOver(db, userID: userID) }
    }

    private func crewsToHandOver(_ db: SQLConnection, userID: Int64) throws -> [OwnedCrew] {
        try db.fetchAll("""
            SELECT crews.slug, crews.name FROM crewMembers owner JOIN crews ON crews.id = owner.crewID
            WHERE owner.userID = ? AND owner.role = 'owner'
              AND EXISTS (SELECT 1 FROM crewMembers other WHERE other.crewID = owner.crewID AND other.userID != owner.userID AND other.role != 'pending')
            ORDER BY crews.name
            """, [userID]) { row in OwnedCrew(slug: try row.decode("slug"), name: try row.decode("name")) }
    }

    /// Deletes an account, at once and in one transaction:
    /// - what others still need moves to the deleted-member account: past meetups they
    ///   hosted, and (unless `removingContent`) their posts, comments, guestbook entries,
    ///   notices, feedback and messages; with `removingContent` those are deleted (messages
    ///   to tombstones, so replies keep their place);
    /// - upcoming meetups they host are called off, and those going are told;
    /// - a crew they alone are in closes: deleted, or hidden where payments to it must be kept;
    /// - payment records stay, without the member;
    /// - everything else about them goes with their row (sessions, providers, push devices,
    ///   mail, runs, follows, blocks, agreements, codes…), and so do the name index's entries
    ///   and the moderation log's label for them (the sign-in throttle keeps no names).
    /// Refused with `StorageError.locked` while they own a crew others are in.
    public func deleteAccount(userID: Int64, removingContent: Bool, now: Date = Date()) throws -> AccountDeletion {
        try database.write { db in
            guard let user = try db.record(User.self, id: userID), user.deletedAt == nil,
                  user.username != Self.deletedMemberUsername else { throw StorageError.notFound }
            guard try crewsToHandOver(db, userID: userID).isEmpty else { throw StorageError.locked }
            let ghost = try deletedMember(db, now: now)
            var files: [String] = []

            if removingContent {
                files += try db.values("SELECT fileName FROM photos WHERE postID IN (SELECT id FROM posts WHERE authorID = ?)", [userID], as: String.self)
                try db.execute("DELETE FROM posts WHERE authorID = ?", [userID])
                try db.execute("DELETE FROM comments WHERE authorID = ?", [userID])
                try db.execute("DELETE FROM crewComments WHERE authorID = ?", [userID])
                try db.execute("DELETE FROM crewNotices WHERE authorID = ?", [userID])
                try db.execute("DELETE FROM retroFeedback WHERE authorID = ?", [userID])
                for id in try db.values("SELECT id FROM messages WHERE authorID = ? AND deletedAt IS NULL", [userID], as: Int64.self) {
                    files += try database.talk.tombstone(db, messageID: id, now: now)
                }
            }
            for (table, column) in [("posts", "authorID"), ("comments", "authorID"), ("crewComments", "authorID"), ("crewNotices", "authorID"),
                                    ("retroFeedback", "authorID"), ("messages", "authorID")] {
                try db.execute("UPDATE \(table) SET \(column) = ? WHERE \(column) = ?", [ghost, userID])
            }

            // Upcoming meetups are called off, and everyone going or waiting is told; past ones
            // stay as they happened, under the deleted member.
            let upcoming = try db.values("SELECT id FROM meetups WHERE hostID = ? AND startsAt > ? AND cancelledAt IS NULL", [userID, now],
                                         as: Int64.self)
            for meetup in upcoming {
                try database.meetups.cancel(db, meetupID: meetup, by: ghost, reason: Self.hostLeft, now: now)
            }
            try db.execute("UPDATE meetups SET hostID = ? WHERE hostID = ?", [ghost, userID])

            // Crews only they are in close.
            let alone = try db.values("SELECT crewID FROM crewMembers WHERE userID = ? AND role = 'owner'", [userID], as: Int64.self)
            for crew in alone {
                if try db.value("SELECT EXISTS (SELECT 1 FROM payments WHERE crewID = ?)", [crew]) == true {
                    try db.execute("UPDATE crews SET hiddenAt = coalesce(hiddenAt, ?) WHERE id = ?", [now, crew])
                } else {
                    try db.execute("DELETE FROM crews WHERE id = ?", [crew])
                }
            }

            let exportFile = try db.value("SELECT fileName FROM dataExports WHERE userID = ?", [userID], as: String.self)
            let grants = try db.fetchAll("SELECT provider, refreshToken FROM identities WHERE userID = ? AND refreshToken IS NOT NULL ORDER BY provider",
                                         [userID]) { row in
                ProviderGrant(provider: try row.decode("provider"), refreshToken: try row.decode("refreshToken"))
            }

            // What names them outside their own rows.
            try db.execute("DELETE FROM nameKeys WHERE kind = 'user' AND itemID = ?", [userID])
            try db.execute("UPDATE moderationLog SET targetLabel = '' WHERE targetType = 'user' AND targetID = ?", [userID])
            try db.execute("DELETE FROM reports WHERE targetType = 'user' AND targetID = ?", [userID])
            try db.execute("DELETE FROM pendingIdentities WHERE email = ?", [user.email])
            try db.execute("DELETE FROM users WHERE id = ?", [userID])
            db.changed(.member(userID: userID))
            return AccountDeletion(mediaFiles: files, exportFile: exportFile, cancelledMeetups: upcoming.count, providerGrants: grants)
        }
    }

    /// Why a meetup whose host left was called off (in both languages: a reason is shown as
    /// written).
    static let hostLeft = "호스트가 탈퇴해 모임이 취소되었습니다 · The host left Moim, so this meetup is cancelled"

    /// The deleted-member account's id, made the first time it is needed.
    private func deletedMember(_ db: SQLConnection, now: Date) throws -> Int64 {
        if let id = try db.value("SELECT id FROM users WHERE username = ?", [Self.deletedMemberUsername], as: Int64.self) { return id }
        var ghost = User(username: Self.deletedMemberUsername, email: "deleted@deleted.invalid", passwordHash: "",
                         displayName: Self.deletedMemberName, createdAt: now)
        ghost.deletedAt = now
        let id = try db.insert(ghost)
        // Nobody to find in search or suggestions.
        try db.execute("DELETE FROM nameKeys WHERE kind = 'user' AND itemID = ?", [id])
        return id
    }
}
