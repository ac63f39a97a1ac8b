import Foundation
import Testing
import TestSupport
@testable import Storage

/// Reports grouped per target, hidden once enough people report it, and every action logged.
@Suite struct ModerationQueriesTests {
    @Test func enoughReportsHideAPostAndTheActionIsLogged() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("mina", "jun", "hana", "dana", "moddy")
        _ = try database.accounts.setRole(.moderator, username: "moddy")
        let post = try database.posts.createPost(authorID: ids[0], content: PostContent(body: "spam", bodyHTML: "<p>spam</p>", tags: [], mentionedUserIDs: []),
                                                 photos: []).storedID
        // Two reports, and the same reporter twice, leave it shown; a third reporter hides it
        for reporter in [ids[1], ids[2], ids[2]] {
            try? database.moderation.report(reporterID: reporter, target: .post, targetID: post, reason: .spam, note: "ad", autoHideThreshold: 3)
        }
        #expect(try !database.moderation.targetIsHidden(.post, id: post))
        let group = try #require(try database.moderation.openReports().first)
        #expect(group.targetID == post && group.count == 2 && group.reasons == [.spam, .spam])
        try database.moderation.report(reporterID: ids[3], target: .post, targetID: post, reason: .spam, note: "", autoHideThreshold: 3)
        #expect(try database.moderation.targetIsHidden(.post, id: post))
        // A moderator restores it: the reports are resolved and the log names who and why
        try database.moderation.moderate(.restore, target: .post, targetID: post, by: ids[4], reason: "not spam after all")
        #expect(try !database.moderation.targetIsHidden(.post, id: post))
        #expect(try database.moderation.openReportCount() == 0)
        let logged = try database.moderation.moderationLog().map { ($0.entry.action, $0.moderator) }
        #expect(logged.contains { $0.0 == "restore" && $0.1 == "moddy" })
    }

    @Test func aBlockWorksBothWays() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("mina", "jun")
        try database.moderation.setBlock(blockerID: ids[0], blockedID: ids[1], on: true)
        #expect(try database.moderation.isBlocked(ids[1], ids[0]))
        #expect(throws: StorageError.forbidden) { try database.profiles.follow(followerID: ids[1], followeeID: ids[0]) }
        try database.moderation.setBlock(blockerID: ids[0], blockedID: ids[1], on: false)
        #expect(try !database.moderation.isBlocked(ids[0], ids[1]))
    }
}
