import Foundation
import Testing
import TestSupport
@testable import Storage

/// The statements of the pages people open most read through indexes on both engines: a test
/// that reads each statement's plan and fails on a full scan of a table that grows with the
/// site, however few rows this small site holds.
@Suite struct QueryPlanTests {
    /// Tables that grow with the site: members, what they write and what they do.
    static let growing: Set<String> = [
        "users", "sessions", "posts", "photos", "postTags", "likes", "bookmarks", "follows", "comments", "timeline",
        "notifications", "crews", "crewMembers", "crewComments", "meetups", "meetupApplications", "meetupTalk", "records",
        "postGrams", "nameKeys", "tagCounts",
    ]

    @Test func thePagesReadThroughIndexes() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("mina", "jun", "hana")
        let (mina, jun) = (ids[0], ids[1])
        try database.profiles.follow(followerID: jun, followeeID: mina)
        let post = try database.posts.createPost(authorID: mina, content: PostContent(body: "River run #한강", bodyHTML: "<p>River run</p>", tags: ["한강"],
                                                                                    mentionedUserIDs: []), photos: []).storedID
        _ = try database.comments.addComment(postID: post, authorID: jun, parentID: nil,
                                             content: PostContent(body: "Nice", bodyHTML: "<p>Nice</p>", tags: [], mentionedUserIDs: []))
        let crew = try database.crews.createCrew(ownerID: mina, fields: CrewFields(
            slug: "river", name: "River Runners", sport: .running, region: "seoul", description: "", descriptionHTML: "", meetingTime: "",
            meetingPlace: "", feeAmount: 0, feeCurrency: "KRW", feePeriod: .month, joinPolicy: .open, memberCap: nil), inviteCode: nil).storedID

        let log = StatementLog()
        try SQLConnection.recordingStatements(into: log) {
            _ = try database.feed.homeFeed(userID: jun, before: nil)
            _ = try database.feed.publicFeed(before: nil, viewerID: jun)
            _ = try database.feed.tagFeed(tag: "한강", before: nil, viewerID: nil)
            _ = try database.feed.crewPosts(crewID: crew, before: nil, viewerID: mina)
            _ = try database.feed.notifications(userID: mina)
            _ = try database.profiles.memberProfile(username: "mina", viewerID: jun)
            _ = try database.comments.thread(postID: post, viewerID: jun)
            _ = try database.crews.searchCrews("", sport: nil, region: nil, order: .activity)
            _ = try database.crews.crews(ofUser: mina)
            _ = try database.meetups.meetups(MeetupFilter(), viewerID: jun, after: nil)
            _ = try database.accounts.user(username: "mina")
            _ = try database.feed.searchUsers("mina")
            _ = try database.feed.bookmarkedPosts(userID: jun, before: nil)
            _ = try database.crews.crew(slug: "river")
            _ = try database.crews.crewMembers(crewID: crew)
            _ = try database.crews.crewRole(crewID: crew, userID: jun)
            _ = try database.meetups.meetup(id: 1)
            _ = try database.meetups.participants(meetupID: 1)
            _ = try database.meetups.application(meetupID: 1, userID: jun)
            _ = try database.meetups.attendance(userID: mina)
            let day = Date()
            _ = try database.records.records(userID: mina, from: day.addingTimeInterval(-31 * 86_400), to: day, viewerID: jun)
            _ = try database.sessions.sessionCount(userID: mina)
            _ = try database.feed.searchPosts("river run", viewerID: jun)
            // Search and suggestions: two syllables, names anywhere, tags by prefix.
            _ = try database.feed.searchPosts("한강", viewerID: jun)
            _ = try database.feed.searchPosts("5k", viewerID: jun)
            _ = try database.feed.searchUsers("미나")
            _ = try database.feed.searchTags("한")
            _ = try database.crews.crewsNamed("runners")
            var named = MeetupFilter()
            named.named = "river"
            _ = try database.meetups.meetups(named, viewerID: jun, after: nil, limit: 3)
        }
        let statements = log.all.filter { $0.sql.trimmingCharacters(in: .whitespacesAndNewlines).uppercased().hasPrefix("SELECT") }
        #expect(statements.count > 10)
        for statement in statements {
            let plan = try database.queryPlan(statement.sql, statement.values)
            #expect(!plan.isEmpty)
            #expect(Self.scans(plan, of: statement.sql).isEmpty,
                    "a scan of a growing table:\n\(statement.sql)\n\(plan.map(\.detail).joined(separator: "\n"))")
        }
    }

    /// The growing tables `plan` reads whole. SQLite: a `SCAN` of one (by rowid or an index)
    /// that its own query then sorts, or that no `LIMIT` stops; an ordered walk with a `LIMIT`
    /// reads only what the page shows. PostgreSQL, with sequential scans ruled out: any
    /// `Seq Scan` left.
    static func scans(_ plan: [PlanStep], of sql: String) -> [String] {
        let limited = sql.uppercased().contains("LIMIT")
        return plan.compactMap { step in
            // PostgreSQL names tables in lower case.
            if let table = step.detail.firstMatch(of: /Seq Scan on (\w+)/)?.1, growing.contains(where: { $0.lowercased() == table.lowercased() }) {
                return step.detail
            }
            guard let table = step.detail.firstMatch(of: /^SCAN (\w+)/)?.1, growing.contains(String(table)) else { return nil }
            let sorted = plan.contains { $0.parent == step.parent && $0.detail.hasPrefix("USE TEMP B-TREE FOR ORDER BY") }
            return sorted || !limited ? step.detail : nil
        }
    }

    @Test func aSortedScanIsFoundAndAnOrderedWalkIsNot() {
        let step = { (detail: String, parent: Int64) in PlanStep(id: 0, parent: parent, detail: detail) }
        #expect(Self.scans([step("SCAN crews", 0), step("USE TEMP B-TREE FOR ORDER BY", 0)], of: "SELECT … LIMIT ?") == ["SCAN crews"])
        #expect(Self.scans([step("SCAN crews USING INDEX crews_activity", 0)], of: "SELECT … LIMIT ?").isEmpty)
        // A sort of an outer query's few rows is not a sort of the table walked inside
        #expect(Self.scans([step("SCAN users USING INDEX users_name", 5), step("USE TEMP B-TREE FOR ORDER BY", 0)], of: "… LIMIT ?").isEmpty)
        #expect(Self.scans([step("SCAN posts", 0)], of: "SELECT count(*) FROM posts") == ["SCAN posts"])
        #expect(Self.scans([step("SCAN blocks", 0)], of: "SELECT * FROM blocks").isEmpty)
        #expect(Self.scans([step("  ->  Seq Scan on posts  (cost=0.00..1.01 rows=1 width=8)", 0)], of: "SELECT … LIMIT 1").count == 1)
        #expect(Self.scans([step("  ->  Seq Scan on crewmembers  (cost=0.00..1.01 rows=1 width=8)", 0)], of: "SELECT … LIMIT 1").count == 1)
    }
}
