import Foundation
import Testing
import TestSupport
@testable import Storage

/// Following: once per pair, told once, listed page by page.
@Suite struct FollowQueriesTests {
    @Test func aSecondFollowChangesNothingAndTheListsPage() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("mina", "jun", "hana", "dana")
        let mina = ids[0]
        for follower in ids.dropFirst() { try database.profiles.follow(followerID: follower, followeeID: mina) }
        try database.profiles.follow(followerID: ids[1], followeeID: mina)
        try database.profiles.follow(followerID: mina, followeeID: mina)
        #expect(try database.feed.notifications(userID: mina).items.filter { $0.notification.kind == .follow }.count == 3)
        #expect(try database.profiles.memberProfile(username: "mina", viewerID: ids[1])?.counts.followers == 3)
        // Two to a page, then the rest
        let first = try database.profiles.follows(of: mina, followers: true, after: nil, limit: 2)
        #expect(first.users.count == 2)
        let next = try #require(first.next)
        let second = try database.profiles.follows(of: mina, followers: true, after: next, limit: 2)
        #expect(second.users.count == 1 && second.next == nil)
        #expect(Set((first.users + second.users).map(\.username)) == ["jun", "hana", "dana"])
        try database.profiles.unfollow(followerID: ids[1], followeeID: mina)
        #expect(try database.profiles.memberProfile(username: "mina", viewerID: nil)?.counts.followers == 2)
    }
}
