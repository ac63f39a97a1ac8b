import Foundation
import Testing
import TestSupport
@testable import Storage

@Suite struct PostQueriesTests {
    let now = Date(timeIntervalSince1970: 1_795_809_600)

    func content(_ body: String, tags: [String] = [], mentioning ids: [Int64] = []) -> PostContent {
        PostContent(body: body, bodyHTML: "<p>\(body)</p>", tags: tags, mentionedUserIDs: ids)
    }

    func mentions(_ database: AppDatabase, _ userID: Int64) throws -> Int {
        try database.feed.notifications(userID: userID).items.count { $0.notification.kind == .mention }
    }

    @Test func aPostKeepsItsPhotosInOrderAndItsAuthorAloneDeletesIt() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("mina", "jun")
        let photos = ["a.jpg", "b.png"].map { NewPhoto(fileName: $0, mediaType: "image/jpeg", width: 800, height: 600, byteCount: 1_000) }
        let post = try database.posts.createPost(authorID: ids[0], content: content("Sunrise", tags: ["dawn"]), photos: photos, now: now)
        let item = try #require(try database.feed.feedItem(postID: post.storedID, viewerID: nil))
        #expect(item.photos.map(\.fileName) == ["a.jpg", "b.png"])
        #expect(throws: StorageError.notFound) { try database.posts.deletePost(id: post.storedID, authorID: ids[1]) }
        // The files come back for the caller to remove from disk
        #expect(try database.posts.deletePost(id: post.storedID, authorID: ids[0]).sorted() == ["a.jpg", "b.png"])
        #expect(try database.feed.feedItem(postID: post.storedID, viewerID: nil) == nil)
    }

    @Test func anEditNotifiesOnlyMentionsNewToIt() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("mina", "jun", "ara")
        let post = try database.posts.createPost(authorID: ids[0], content: content("Hi @jun", mentioning: [ids[1]]), photos: [], now: now)
        _ = try database.posts.updatePost(id: post.storedID, authorID: ids[0], content: content("Hi @jun and @ara", mentioning: [ids[1], ids[2]]), now: now)
        #expect(try mentions(database, ids[1]) == 1)
        #expect(try mentions(database, ids[2]) == 1)
        #expect(throws: StorageError.notFound) {
            try database.posts.updatePost(id: post.storedID, authorID: ids[1], content: content("Not mine"), now: now)
        }
    }

    @Test func aCrewPostNeedsAMember() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("mina", "jun")
        let crew = try database.crews.createCrew(ownerID: ids[0], fields: CrewFields(
            slug: "dawn", name: "Dawn", sport: .running, region: nil, description: "", descriptionHTML: "", meetingTime: "",
            meetingPlace: "", feeAmount: 0, feeCurrency: "KRW", feePeriod: .month, joinPolicy: .open, memberCap: nil), inviteCode: nil).storedID
        #expect(throws: StorageError.forbidden) { try database.posts.createPost(authorID: ids[1], content: content("Let me in"), photos: [], crewID: crew, now: now) }
        _ = try database.crews.joinCrew(id: crew, userID: ids[1], inviteCode: nil)
        let post = try database.posts.createPost(authorID: ids[1], content: content("In"), photos: [], crewID: crew, now: now)
        #expect(post.crewID == crew)
    }

    @Test func usernamesAreFoundIgnoringCase() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("mina", "jun")
        #expect(try database.posts.userIDs(usernames: ["MINA", "Jun", "nobody"]) == ["mina": ids[0], "jun": ids[1]])
        #expect(try database.posts.userIDs(usernames: []) == [:])
    }
}
