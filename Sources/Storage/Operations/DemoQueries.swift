import Foundation

extension AppDatabase {
    /// Bulk inserts for `moim demo`.
    public var demo: DemoStore { DemoStore(database: self) }
}

/// Bulk inserts for `moim demo`: generated members, posts, follows and comments, written in
/// a few large transactions through prepared statements.
public struct DemoStore: Sendable {
    let database: AppDatabase
}

/// A generated post.
public struct DemoPost: Sendable {
    public var authorID: Int64
    public var body: String
    public var bodyHTML: String
    public var tags: [String]
    public var createdAt: Date

    public init(authorID: Int64, body: String, bodyHTML: String, tags: [String], createdAt: Date) {
        self.authorID = authorID
        self.body = body
        self.bodyHTML = bodyHTML
        self.tags = tags
        self.createdAt = createdAt
    }
}

extension DemoStore {
    /// Inserts members `prefix1`…`prefixN` sharing one password hash; returns their ids.
    public func insertUsers(count: Int, prefix: String, passwordHash: String, now: Date = Date()) throws -> [Int64] {
        try database.write { db in
            // Demo members agreed to the documents of the day they joined.
            let insert = """
                INSERT INTO users (username, email, passwordHash, displayName, region, createdAt, termsVersion, privacyVersion)
                VALUES (?, ?, ?, ?, ?, ?, (SELECT max(version) FROM documents WHERE kind = 'terms'),
                        (SELECT max(version) FROM documents WHERE kind = 'privacy')) RETURNING id
                """
            let agree = """
                INSERT INTO agreements (userID, kind, version, agreedAt)
                SELECT ?, kind, max(version), ? FROM documents WHERE kind IN ('terms', 'privacy') GROUP BY kind
                """
            let regions = ["seoul", "busan", "gyeonggi", "incheon", "daegu"]
            var ids: [Int64] = []
            ids.reserveCapacity(count)
            for number in 1...max(1, count) {
                let name = "\(prefix)\(number)"
                guard let id = try db.value(insert, [name, "\(name)@example.com", passwordHash, "Runner \(number)", regions[number % regions.count], now],
                                            as: Int64.self)
                else { throw StorageError.notFound }
                try db.execute(agree, [id, now])
                ids.append(id)
            }
            return ids
        }
    }

    public func insertPosts(_ posts: [DemoPost]) throws -> [Int64] {
        try database.write { db in
            var ids: [Int64] = []
            ids.reserveCapacity(posts.count)
            for post in posts {
                guard let id = try db.value("INSERT INTO posts (authorID, body, bodyHTML, createdAt) VALUES (?, ?, ?, ?) RETURNING id",
                                            [post.authorID, post.body, post.bodyHTML, post.createdAt], as: Int64.self)
                else { throw StorageError.notFound }
                try database.replaceSearchKeys(db, postID: id, body: post.body, tags: post.tags)
                ids.append(id)
            }
            return ids
        }
    }

    /// Meetups in one transaction (generated ones need no crew and no checks).
    public func insertMeetups(_ meetups: [Meetup]) throws {
        try database.write { db in
            for meetup in meetups { _ = try db.insert(meetup) }
        }
    }

    public func insertFollows(_ pairs: [(follower: Int64, followee: Int64)], now: Date = Date()) throws {
        try database.write { db in
            for pair in pairs where pair.follower != pair.followee {
                try db.execute("INSERT INTO follows (followerID, followeeID, createdAt) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", [pair.follower, pair.followee, now])
            }
        }
    }

    /// Adds `count` comments by `authors` (in turn) to a post, every third a reply.
    public func insertComments(postID: Int64, authors: [Int64], count: Int, now: Date = Date()) throws {
        try database.write { db in
            let insert = """
                INSERT INTO comments (postID, authorID, parentID, depth, body, bodyHTML, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id
                """
            var last: Int64? = nil
            for number in 0..<count {
                let reply = number % 3 == 2 ? last : nil
                let body = "Comment \(number + 1): see you at the next run!"
                last = try db.value(insert, [postID, authors[number % authors.count], reply, reply == nil ? 0 : 1, body, "<p>\(body)</p>\n", now])
            }
            try db.execute("UPDATE posts SET commentCount = commentCount + ? WHERE id = ?", [count, postID])
        }
    }

    /// Crews with their members, the first of each its owner, the newest active first.
    public func insertCrews(_ crews: [(crew: CrewFields, members: [Int64])], now: Date = Date()) throws {
        try database.write { db in
            for (number, (fields, members)) in crews.enumerated() {
                let members = Array(Set(members))
                let crew = Crew(id: nil, slug: fields.slug, name: fields.name, sport: fields.sport, region: fields.region,
                                description: fields.description, descriptionHTML: fields.descriptionHTML, coverFileName: nil, coverWidth: nil,
                                coverHeight: nil, meetingTime: fields.meetingTime, meetingPlace: fields.meetingPlace, feeAmount: fields.feeAmount,
                                feeCurrency: fields.feeCurrency, feePeriod: fields.feePeriod, joinPolicy: fields.joinPolicy, inviteCode: nil,
                                memberCap: fields.memberCap, memberCount: members.count, createdAt: now,
                                lastActivityAt: now.addingTimeInterval(-Double(number) * 60), hiddenAt: nil, coverTone: nil, refundDays: 0)
                let id = try db.insert(crew)
                for (position, userID) in members.enumerated() {
                    try db.execute("INSERT INTO crewMembers (crewID, userID, role, joinedAt) VALUES (?, ?, ?, ?)",
                                   [id, userID, position == 0 ? "owner" : "member", now])
                }
            }
        }
    }

    /// Runs, written as they come.
    public func insertRecords(_ records: [RunRecord]) throws {
        try database.write { db in
            for record in records { _ = try db.insert(record) }
        }
    }

    /// A comment on each of `postIDs` (a post may come more than once), by `authors` in turn;
    /// the posts' comment counts follow.
    public func insertComments(postIDs: [Int64], authors: [Int64], now: Date = Date()) throws {
        try database.write { db in
            for (number, postID) in postIDs.enumerated() {
                let body = "Nice run! See you at the next one."
                try db.execute("INSERT INTO comments (postID, authorID, depth, body, bodyHTML, createdAt) VALUES (?, ?, 0, ?, ?, ?)",
                               [postID, authors[number % authors.count], body, "<p>\(body)</p>\n", now])
                try db.execute("UPDATE posts SET commentCount = commentCount + 1 WHERE id = ?", [postID])
            }
        }
    }

    /// Notifications, each a follow or a mention in a post, most of them read.
    public func insertNotifications(_ rows: [(userID: Int64, actorID: Int64, postID: Int64?, createdAt: Date)]) throws {
        try database.write { db in
            for row in rows {
                try db.execute("INSERT INTO notifications (userID, kind, actorID, postID, createdAt, readAt) VALUES (?, ?, ?, ?, ?, ?)",
                               [row.userID, row.postID == nil ? "follow" : "mention", row.actorID, row.postID, row.createdAt,
                                row.userID % 4 == 0 ? nil : row.createdAt])
            }
        }
    }
}
