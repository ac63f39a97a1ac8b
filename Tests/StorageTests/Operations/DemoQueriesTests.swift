import Foundation
import Testing
import TestSupport
@testable import Storage

/// `moim demo`'s bulk inserts (`database.demo`): what they write is what pages read.
struct DemoQueriesTests {
    @Test func generatedMembersPostsAndFollowsAreReadAsPagesReadThem() throws {
        // Given three generated members, two posts by the first and the others following them
        let database = try TestDatabase.fresh()
        let now = Date(timeIntervalSince1970: 1_780_000_000)
        let ids = try database.demo.insertUsers(count: 3, prefix: "runner", passwordHash: "x", now: now)
        let posts = try database.demo.insertPosts([
            DemoPost(authorID: ids[0], body: "Easy 10k #한강", bodyHTML: "<p>Easy 10k</p>", tags: ["한강"], createdAt: now),
            DemoPost(authorID: ids[0], body: "Hill repeats", bodyHTML: "<p>Hill repeats</p>", tags: [], createdAt: now.addingTimeInterval(60)),
        ])
        try database.demo.insertFollows([(follower: ids[1], followee: ids[0]), (follower: ids[2], followee: ids[0])], now: now)

        // Then the members are there by name, and the posts in a follower's feed and under their tag, newest first
        #expect(ids.count == 3 && posts.count == 2)
        #expect(try database.accounts.user(username: "runner2")?.id == ids[1])
        let feed = try database.feed.homeFeed(userID: ids[1], before: nil, limit: 10)
        #expect(feed.items.map(\.post.id) == [posts[1], posts[0]])
        #expect(try database.feed.tagFeed(tag: "한강", before: nil, limit: 10, viewerID: nil).items.map(\.post.id) == [posts[0]])
    }
}
