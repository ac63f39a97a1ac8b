import Foundation
import Testing
import TestSupport
@testable import Storage

/// A database with a few members, for feed tests.
private struct Fixture {
    let database: AppDatabase
    var ids: [String: Int64] = [:]

    init(_ names: [String] = ["mina", "jun", "hana"], database: AppDatabase? = nil) throws {
        self.database = try database ?? TestDatabase.fresh()
        for name in names {
            let user = try self.database.accounts.createUser(User(username: name, email: "\(name)@example.com", passwordHash: "x", displayName: name))
            ids[name] = try user.storedID
        }
    }

    @discardableResult
    func post(_ author: String, _ body: String, tags: [String] = [], mentions: [Int64] = []) throws -> Post {
        try database.posts.createPost(authorID: ids[author]!, content: PostContent(body: body, bodyHTML: "<p>\(body)</p>", tags: tags, mentionedUserIDs: mentions), photos: [])
    }
}

@Suite struct FeedQueriesTests {
    @Test func walkingOlderPagesListsEveryPostOnceWhileNewOnesArrive() throws {
        let fixture = try Fixture()
        for number in 1...45 { try fixture.post("mina", "post \(number)") }
        var seen: [String] = []
        var cursor: Int64? = nil
        var extra = 0
        repeat {
            let page = try fixture.database.feed.publicFeed(before: cursor, limit: 10, viewerID: nil)
            seen += page.items.map(\.post.body)
            cursor = page.nextCursor
            // Someone posts between page loads.
            extra += 1
            try fixture.post("jun", "new \(extra)")
        } while cursor != nil
        #expect(seen == (1...45).reversed().map { "post \($0)" })
    }

    @Test func theHomeFeedShowsFolloweesAndOneself() throws {
        let fixture = try Fixture()
        try fixture.post("mina", "mine")
        try fixture.post("jun", "from jun")
        try fixture.post("hana", "from hana")
        try fixture.database.profiles.follow(followerID: fixture.ids["mina"]!, followeeID: fixture.ids["jun"]!)
        let feed = try fixture.database.feed.homeFeed(userID: fixture.ids["mina"]!, before: nil)
        #expect(feed.items.map(\.post.body) == ["from jun", "mine"])
        #expect(feed.items.first?.author.username == "jun")
    }

    @Test func tagFeedsFindNormalisedTags() throws {
        let fixture = try Fixture()
        try fixture.post("mina", "#Run", tags: ["run"])
        try fixture.post("jun", "#한강러닝", tags: ["한강러닝"])
        #expect(try fixture.database.feed.tagFeed(tag: "run", before: nil, viewerID: nil).items.count == 1)
        #expect(try fixture.database.feed.tagFeed(tag: "한강러닝", before: nil, viewerID: nil).items.first?.author.username == "jun")
        #expect(try fixture.database.feed.searchTags("한강").first?.tag == "한강러닝")
    }

    /// What a viewer may not see is left out by the query, so a page still holds `limit`
    /// posts and the next one starts where it ended: nothing skipped, nothing twice.
    @Test func pagesStayFullAroundHiddenPostsAndBlockedPeople() throws {
        let fixture = try Fixture(["mina", "jun", "hana", "admin"])
        var hidden: Set<String> = []
        for number in 1...30 {
            try fixture.post(number % 3 == 0 ? "hana" : "mina", "post \(number)")
            if number % 4 == 0 { hidden.insert("post \(number)") }
        }
        try fixture.database.write { db in
            for body in hidden { try db.execute("UPDATE posts SET hiddenAt = ? WHERE body = ?", [Date(), body]) }
        }
        try fixture.database.moderation.setBlock(blockerID: fixture.ids["hana"]!, blockedID: fixture.ids["jun"]!, on: true)
        _ = try fixture.database.accounts.setRole(.moderator, username: "admin")

        func walk(_ viewer: String) throws -> [String] {
            var seen: [String] = []
            var cursor: Int64? = nil
            repeat {
                let page = try fixture.database.feed.publicFeed(before: cursor, limit: 5, viewerID: fixture.ids[viewer])
                if page.nextCursor != nil { #expect(page.items.count == 5) }
                seen += page.items.map(\.post.body)
                cursor = page.nextCursor
            } while cursor != nil
            return seen
        }
        let everything = (1...30).reversed().map { "post \($0)" }
        // jun: no hidden posts, and nothing of hana, who blocked him.
        #expect(try walk("jun") == everything.filter { !hidden.contains($0) && Int($0.dropFirst(5))! % 3 != 0 })
        // mina sees her own hidden posts, not hana's; staff see all.
        #expect(try walk("mina") == everything.filter { !hidden.contains($0) || Int($0.dropFirst(5))! % 3 != 0 })
        #expect(try walk("admin") == everything)
    }

    @Test func likesFollowsAndBookmarksAreIdempotent() throws {
        let fixture = try Fixture()
        let post = try fixture.post("mina", "hello")
        let jun = fixture.ids["jun"]!, postID = try post.storedID
        try fixture.database.posts.like(postID: postID, userID: jun)
        try fixture.database.posts.like(postID: postID, userID: jun)
        try fixture.database.posts.bookmark(postID: postID, userID: jun)
        try fixture.database.posts.bookmark(postID: postID, userID: jun)
        try fixture.database.profiles.follow(followerID: jun, followeeID: fixture.ids["mina"]!)
        try fixture.database.profiles.follow(followerID: jun, followeeID: fixture.ids["mina"]!)
        let item = try #require(try fixture.database.feed.feedItem(postID: postID, viewerID: jun))
        #expect(item.post.likeCount == 1 && item.likedByViewer && item.bookmarkedByViewer)
        #expect(try fixture.database.profiles.memberProfile(username: "mina", viewerID: nil)?.counts.followers == 1)
        #expect(try fixture.database.feed.notifications(userID: fixture.ids["mina"]!).items.count == 1)
        try fixture.database.posts.unlike(postID: postID, userID: jun)
        try fixture.database.posts.unlike(postID: postID, userID: jun)
        #expect(try fixture.database.feed.feedItem(postID: postID, viewerID: jun)?.post.likeCount == 0)
    }

    @Test func racingLikesFollowsAndBookmarksCountOnce() throws {
        let directory = NSTemporaryDirectory() + "moim-race-\(UUID().uuidString)"
        let fixture = try Fixture(database: AppDatabase.open(directory: directory))
        let postID = try fixture.post("mina", "race").storedID
        let jun = fixture.ids["jun"]!
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            try? fixture.database.posts.like(postID: postID, userID: jun)
            try? fixture.database.profiles.follow(followerID: jun, followeeID: fixture.ids["mina"]!)
            try? fixture.database.posts.bookmark(postID: postID, userID: jun)
        }
        let item = try #require(try fixture.database.feed.feedItem(postID: postID, viewerID: jun))
        #expect(item.post.likeCount == 1 && item.bookmarkedByViewer)
        #expect(try fixture.database.profiles.memberProfile(username: "mina", viewerID: nil)?.counts.followers == 1)
        #expect(try fixture.database.feed.notifications(userID: fixture.ids["mina"]!).items.count == 1)
        try fixture.database.close()
    }

    @Test func threadsNestRepliesAndNotifyEachPersonOnce() throws {
        let fixture = try Fixture()
        let mina = fixture.ids["mina"]!, jun = fixture.ids["jun"]!, hana = fixture.ids["hana"]!
        let postID = try fixture.post("mina", "long run").storedID
        let content = { (text: String, mentions: [Int64]) in PostContent(body: text, bodyHTML: text, tags: [], mentionedUserIDs: mentions) }
        let first = try fixture.database.comments.addComment(postID: postID, authorID: jun, parentID: nil, content: content("nice", []))
        let reply = try fixture.database.comments.addComment(postID: postID, authorID: hana, parentID: first.id, content: content("agreed @jun @mina", [jun, mina]))
        _ = try fixture.database.comments.addComment(postID: postID, authorID: mina, parentID: nil, content: content("thanks", []))

        let thread = try fixture.database.comments.thread(postID: postID)
        #expect(thread.map(\.comment.bodyHTML) == ["nice", "agreed @jun @mina", "thanks"])
        #expect(thread.map(\.comment.depth) == [0, 1, 0])
        // jun: comment notification not his (he commented); reply from hana once (not also a mention).
        #expect(try fixture.database.feed.notifications(userID: jun).items.map(\.notification.kind) == [.reply])
        #expect(Set(try fixture.database.feed.notifications(userID: mina).items.map(\.notification.kind)) == [.comment])

        try fixture.database.comments.deleteComment(id: first.storedID, authorID: jun)
        let afterDelete = try fixture.database.comments.thread(postID: postID)
        #expect(afterDelete.first?.comment.deletedAt != nil)
        #expect(afterDelete.count == 3)
        try fixture.database.comments.deleteComment(id: reply.storedID, authorID: hana)
        #expect(try fixture.database.comments.thread(postID: postID).count == 2)
        #expect(try fixture.database.feed.feedItem(postID: postID, viewerID: nil)?.post.commentCount == 1)
    }

    @Test func searchFindsKoreanAndEnglishSubstrings() throws {
        let fixture = try Fixture()
        try fixture.post("mina", "오늘 한강에서 러닝했어요")
        try fixture.post("jun", "Sunday long run along the river")
        #expect(try fixture.database.feed.searchPosts("한강에서", viewerID: nil).count == 1)
        #expect(try fixture.database.feed.searchPosts("러닝", viewerID: nil).first?.excerpt.contains(SearchMarker.start + "러닝" + SearchMarker.end) == true)
        #expect(try fixture.database.feed.searchPosts("long RUN", viewerID: nil).count == 1)
        #expect(try fixture.database.feed.searchPosts("\"; DROP TABLE posts; --", viewerID: nil).isEmpty)
        #expect(try fixture.database.feed.searchUsers("MI").first?.username == "mina")
        // A display name matches anywhere in it; what no username can start with still finds names.
        _ = try fixture.database.accounts.createUser(User(username: "hana_k", email: "hana.k@example.com", passwordHash: "x", displayName: "김하나 Kim"))
        #expect(try fixture.database.feed.searchUsers("하나").map(\.username) == ["hana_k"])
        #expect(try fixture.database.feed.searchUsers("hana_").map(\.username) == ["hana_k"])
        #expect(try fixture.database.feed.searchUsers("a_k").isEmpty)
        #expect(try fixture.database.feed.searchUsers("%").isEmpty)
    }

    /// The member of that very username or display name first, then the others by username,
    /// ignoring case where the text has one, on either engine.
    @Test func membersFoundExactFirstThenByUsername() throws {
        let fixture = try Fixture()
        for (username, name) in [("runner", "Runner"), ("runner_b", "B Runner"), ("arunner", "김러너"), ("zed", "Runner Zed"),
                                 ("kim", "러닝 김"), ("leo", "러닝")] {
            _ = try fixture.database.accounts.createUser(User(username: username, email: "\(username)@example.com", passwordHash: "x", displayName: name))
        }
        #expect(try fixture.database.feed.searchUsers("runner").map(\.username) == ["runner", "runner_b", "zed"])
        #expect(try fixture.database.feed.searchUsers("RUNNER", limit: 2).map(\.username) == ["runner", "runner_b"])
        #expect(try fixture.database.feed.searchUsers("러닝").map(\.username) == ["leo", "kim"])
        #expect(try fixture.database.feed.searchUsers("runner zed").map(\.username) == ["zed"])
        #expect(try fixture.database.feed.searchUsers("러너").map(\.username) == ["arunner"])
        #expect(try fixture.database.feed.searchUsers("o'; --").isEmpty)
    }

    @Test func textWithoutCaseIsMatchedExactly() {
        #expect(!SearchText("러닝 2026").hasCase)
        #expect(!SearchText("%_\\").hasCase)
        #expect(SearchText("한강 Run").hasCase)
        #expect(SearchText("ß").hasCase)
        #expect(SearchText("Ωmega").hasCase)
    }

    @Test func onlyTheAuthorEditsOrDeletesAPost() throws {
        let fixture = try Fixture()
        let postID = try fixture.post("mina", "mine").storedID
        let edit = PostContent(body: "hacked", bodyHTML: "hacked", tags: [], mentionedUserIDs: [])
        #expect(throws: StorageError.notFound) { try fixture.database.posts.updatePost(id: postID, authorID: fixture.ids["jun"]!, content: edit) }
        #expect(throws: StorageError.notFound) { try fixture.database.posts.deletePost(id: postID, authorID: fixture.ids["jun"]!) }
        #expect(try fixture.database.posts.deletePost(id: postID, authorID: fixture.ids["mina"]!) == [])
        #expect(try fixture.database.feed.feedItem(postID: postID, viewerID: nil) == nil)
    }
}

/// The home feed is read from timelines the triggers keep; after every change a member can
/// make, the timeline must hold exactly what the feed's definition gives.
@Suite struct TimelineTests {
    /// Each member's feed straight from its definition: their posts, their followees' posts,
    /// posts in crews they are a member of.
    private func definition(_ database: AppDatabase) throws -> [Int64: [Int64]] {
        try database.read { db in
            let rows = try db.fetchAll("""
                SELECT users.id AS userID, posts.id AS postID FROM users JOIN posts
                  ON posts.authorID = users.id
                  OR posts.authorID IN (SELECT followeeID FROM follows WHERE followerID = users.id)
                  OR posts.crewID IN (SELECT crewID FROM crewMembers WHERE userID = users.id AND role != 'pending')
                ORDER BY postID DESC
                """) { (user: try $0.decode(Int64.self, atIndex: 0), post: try $0.decode(Int64.self, atIndex: 1)) }
            return Dictionary(grouping: rows, by: \.user).mapValues { $0.map(\.post) }
        }
    }

    private func timelines(_ database: AppDatabase) throws -> [Int64: [Int64]] {
        try database.read { db in
            let rows = try db.fetchAll("SELECT userID, postID FROM timeline ORDER BY postID DESC") {
                (user: try $0.decode(Int64.self, atIndex: 0), post: try $0.decode(Int64.self, atIndex: 1))
            }
            return Dictionary(grouping: rows, by: \.user).mapValues { $0.map(\.post) }
        }
    }

    private func expectConsistent(_ fixture: Fixture, _ step: String) throws {
        let expected = try definition(fixture.database)
        #expect(try timelines(fixture.database) == expected, "timeline rows after \(step)")
        for (name, id) in fixture.ids {
            let feed = try fixture.database.feed.homeFeed(userID: id, before: nil, limit: 50).items.compactMap(\.post.id)
            #expect(feed == expected[id, default: []], "\(name)'s feed after \(step)")
        }
    }

    @Test func followingJoiningLeavingAndDeletingKeepEveryTimelineExact() throws {
        var fixture = try Fixture(["mina", "jun", "hana", "owner"])
        let mina = fixture.ids["mina"]!, jun = fixture.ids["jun"]!, hana = fixture.ids["hana"]!, owner = fixture.ids["owner"]!
        let fields = { (slug: String, policy: Crew.JoinPolicy) in
            CrewFields(slug: slug, name: "Crew \(slug)", sport: .running, region: "seoul", description: "", descriptionHTML: "",
                       meetingTime: "", meetingPlace: "", feeAmount: 0, feeCurrency: "KRW", feePeriod: .month,
                       joinPolicy: policy, memberCap: nil)
        }
        let open = try fixture.database.crews.createCrew(ownerID: owner, fields: fields("open", .open), inviteCode: nil).storedID
        let strict = try fixture.database.crews.createCrew(ownerID: owner, fields: fields("strict", .approval), inviteCode: nil).storedID
        func crewPost(_ author: Int64, _ crew: Int64, _ body: String) throws -> Int64 {
            try fixture.database.posts.createPost(authorID: author, content: PostContent(body: body, bodyHTML: body, tags: [], mentionedUserIDs: []),
                                            photos: [], crewID: crew).storedID
        }
        _ = try fixture.database.crews.joinCrew(id: open, userID: jun, inviteCode: nil)
        try fixture.post("jun", "jun's own")
        _ = try crewPost(jun, open, "jun in the open crew")
        _ = try crewPost(owner, strict, "owner in the strict crew")
        try expectConsistent(fixture, "posting")

        try fixture.database.profiles.follow(followerID: mina, followeeID: jun)
        try expectConsistent(fixture, "following")
        _ = try fixture.database.crews.joinCrew(id: open, userID: mina, inviteCode: nil)
        try expectConsistent(fixture, "joining a crew whose posts she also sees by following")
        try fixture.database.profiles.unfollow(followerID: mina, followeeID: jun)
        try expectConsistent(fixture, "unfollowing: the crew post stays, the other goes")
        try fixture.database.profiles.follow(followerID: mina, followeeID: jun)
        try fixture.database.crews.leaveCrew(id: open, userID: mina)
        try expectConsistent(fixture, "leaving: the followee's crew post stays")

        #expect(try fixture.database.crews.joinCrew(id: strict, userID: hana, inviteCode: nil) == .pending)
        try expectConsistent(fixture, "asking to join: nothing yet")
        try fixture.database.crews.decideJoinRequest(crewID: strict, applicantID: hana, by: owner, accept: true)
        try expectConsistent(fixture, "being accepted")
        let later = try crewPost(owner, strict, "owner again")
        try expectConsistent(fixture, "a new crew post")
        _ = try fixture.database.posts.deletePost(id: later, authorID: owner)
        try expectConsistent(fixture, "deleting a post")
        try fixture.database.crews.removeCrewMember(crewID: strict, userID: hana, by: owner)
        try expectConsistent(fixture, "being removed from a crew")

        fixture.ids["owner"] = nil
        try fixture.database.write { db in try db.execute("DELETE FROM users WHERE id = ?", [owner]) }
        try expectConsistent(fixture, "an account deleted with its posts and crews")
    }

    @Test func aStaleRowNeverShowsAPostToSomeoneItWasNotFor() throws {
        let fixture = try Fixture()
        let post = try fixture.post("jun", "for jun's followers").storedID
        // As if a trigger had missed a row (or a deleted post's id came back).
        try fixture.database.write { db in
            try db.execute("INSERT INTO timeline (userID, postID) VALUES (?, ?)", [fixture.ids["hana"]!, post])
        }
        #expect(try fixture.database.feed.homeFeed(userID: fixture.ids["hana"]!, before: nil).items.isEmpty)
    }
}
