import Foundation
import Testing
import TestSupport
@testable import Storage

@Suite struct RoomQueriesTests {
    let now = Date(timeIntervalSince1970: 1_795_809_600)

    func crew(_ database: AppDatabase, owner: Int64, slug: String = "dawn", policy: Crew.JoinPolicy = .open) throws -> Int64 {
        try database.crews.createCrew(ownerID: owner, fields: CrewFields(
            slug: slug, name: slug.capitalized, sport: .running, region: nil, description: "", descriptionHTML: "", meetingTime: "",
            meetingPlace: "", feeAmount: 0, feeCurrency: "KRW", feePeriod: .month, joinPolicy: policy, memberCap: nil), inviteCode: nil).storedID
    }

    func send(_ database: AppDatabase, _ roomID: Int64, _ authorID: Int64, _ body: String, at: Date? = nil) throws -> Message {
        try database.talk.send(Message(roomID: roomID, authorID: authorID, body: body, bodyHTML: "<p>\(body)</p>", createdAt: now), now: at ?? now)
    }

    @Test func everyCrewHasARoomItsMembersAreInHoweverTheyJoinOrLeave() throws {
        // Given a crew that takes members on approval
        let database = try TestDatabase.fresh()
        let ids = try database.members("lead", "mina", "jun")
        let crewID = try crew(database, owner: ids[0], policy: .approval)
        let room = try #require(try database.talk.crewRoom(crewID: crewID))
        #expect(try database.talk.memberIDs(roomID: room.storedID) == [ids[0]])
        // A request is not membership; being accepted is
        _ = try database.crews.joinCrew(id: crewID, userID: ids[1], inviteCode: nil)
        #expect(try database.talk.room(id: room.storedID, for: ids[1]) == nil)
        _ = try database.crews.decideJoinRequest(crewID: crewID, applicantID: ids[1], by: ids[0], accept: true)
        #expect(try database.talk.room(id: room.storedID, for: ids[1]) != nil)
        // A topic room takes in every member, and a later one too
        let topic = try database.talk.createTopicRoom(crewID: crewID, by: ids[0], name: "정모", now: now)
        #expect(try database.talk.memberIDs(roomID: topic.storedID) == [ids[0], ids[1]])
        // Leaving the crew leaves its rooms
        _ = try database.crews.leaveCrew(id: crewID, userID: ids[1])
        #expect(try database.talk.room(id: room.storedID, for: ids[1]) == nil && database.talk.room(id: topic.storedID, for: ids[1]) == nil)
        // Only staff make topic rooms
        _ = try database.crews.joinCrew(id: crewID, userID: ids[2], inviteCode: nil)
        #expect(throws: StorageError.forbidden) { try database.talk.createTopicRoom(crewID: crewID, by: ids[2], name: "장비", now: now) }
    }

    @Test func unreadCountsAreExactPerMember() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("lead", "mina", "jun")
        let crewID = try crew(database, owner: ids[0])
        for member in ids.dropFirst() { _ = try database.crews.joinCrew(id: crewID, userID: member, inviteCode: nil) }
        let room = try #require(try database.talk.crewRoom(crewID: crewID)).storedID
        let first = try send(database, room, ids[0], "Saturday 7am?")
        _ = try send(database, room, ids[1], "Yes!")
        let third = try send(database, room, ids[0], "Bring water")
        // Writing reads the room up to one's message; the others count what came after
        #expect(try database.talk.unreadCount(userID: ids[0], now: now) == 0)
        #expect(try database.talk.unreadCount(userID: ids[1], now: now) == 1)
        #expect(try database.talk.unreadCount(userID: ids[2], now: now) == 3)
        // Reading part of the room leaves exactly the rest
        try database.talk.markRead(roomID: room, userID: ids[2], upTo: try first.storedID)
        #expect(try database.talk.unreadCount(userID: ids[2], now: now) == 2)
        try database.talk.markRead(roomID: room, userID: ids[2], upTo: try third.storedID)
        #expect(try database.talk.unreadCount(userID: ids[2], now: now) == 0)
        // A deleted message no longer waits
        let fourth = try send(database, room, ids[1], "oops")
        #expect(try database.talk.unreadCount(userID: ids[2], now: now) == 1)
        try database.talk.delete(messageID: try fourth.storedID, by: ids[1], now: now)
        #expect(try database.talk.unreadCount(userID: ids[2], now: now) == 0)
        // A muted room is left out of the count until the mute ends
        _ = try send(database, room, ids[1], "again")
        try database.talk.mute(roomID: room, userID: ids[2], until: now.addingTimeInterval(3_600))
        #expect(try database.talk.unreadCount(userID: ids[2], now: now) == 0)
        #expect(try database.talk.unreadCount(userID: ids[2], now: now.addingTimeInterval(3_601)) == 1)
    }

    @Test func theInboxListsRoomsNewestFirstWithTheirLastMessage() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("mina", "jun", "ara")
        let withJun = try database.talk.directRoom(from: ids[0], to: ids[1], now: now)
        let withAra = try database.talk.directRoom(from: ids[0], to: ids[2], now: now)
        _ = try send(database, withJun.storedID, ids[0], "Hi Jun", at: now.addingTimeInterval(10))
        _ = try send(database, withAra.storedID, ids[0], "Hi Ara", at: now.addingTimeInterval(20))
        let inbox = try database.talk.inbox(userID: ids[0])
        #expect(inbox.map(\.room.id) == [withAra.id, withJun.id])
        #expect(inbox.first?.others == ["Ara"] && inbox.first?.lastBody == "Hi Ara" && inbox.first?.lastAuthor == "Mina")
        // Paged by the time of the last message
        #expect(try database.talk.inbox(userID: ids[0], before: inbox[0].room.lastMessageAt).map(\.room.id) == [withJun.id])
    }

    @Test func oneDirectRoomPerPairAndStrangersWaitInRequests() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("mina", "jun")
        let room = try database.talk.directRoom(from: ids[0], to: ids[1], now: now)
        #expect(try database.talk.directRoom(from: ids[1], to: ids[0], now: now).id == room.id)
        // Jun does not know Mina: her conversation waits in his requests
        #expect(try database.talk.inbox(userID: ids[1]).isEmpty)
        #expect(try database.talk.inbox(userID: ids[1], requests: true).map(\.room.id) == [room.id])
        try database.talk.accept(roomID: room.storedID, userID: ids[1])
        #expect(try database.talk.inbox(userID: ids[1]).map(\.room.id) == [room.id])
        #expect(throws: StorageError.forbidden) { try database.talk.directRoom(from: ids[0], to: ids[0], now: now) }
        // Declined, then asked again: a request again, in the same conversation
        try database.talk.leave(roomID: room.storedID, userID: ids[1])
        #expect(try database.talk.inbox(userID: ids[1]).isEmpty)
        #expect(try database.talk.directRoom(from: ids[0], to: ids[1], now: now).id == room.id)
        #expect(try database.talk.inbox(userID: ids[1], requests: true).map(\.room.id) == [room.id])
    }

    @Test func whoMayStartIsEachMembersOwnChoice() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("mina", "jun", "ara")
        try database.talk.setWhoMayStart(.nobody, userID: ids[1])
        #expect(throws: StorageError.forbidden) { try database.talk.directRoom(from: ids[0], to: ids[1], now: now) }
        try database.talk.setWhoMayStart(.following, userID: ids[1])
        #expect(throws: StorageError.forbidden) { try database.talk.directRoom(from: ids[0], to: ids[1], now: now) }
        try database.profiles.follow(followerID: ids[1], followeeID: ids[0])
        let room = try database.talk.directRoom(from: ids[0], to: ids[1], now: now)
        // Someone he follows goes straight to his inbox
        #expect(try database.talk.inbox(userID: ids[1]).map(\.room.id) == [room.id])
        try database.talk.setWhoMayStart(.crewmates, userID: ids[2])
        #expect(throws: StorageError.forbidden) { try database.talk.createGroup(by: ids[0], memberIDs: [ids[1], ids[2]], name: nil, now: now) }
        #expect(try database.talk.whoMayStart(userID: ids[2]) == .crewmates)
    }

    @Test func blocksCloseDirectConversations() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("mina", "jun")
        let room = try database.talk.directRoom(from: ids[0], to: ids[1], now: now)
        try database.talk.accept(roomID: room.storedID, userID: ids[1])
        _ = try send(database, room.storedID, ids[0], "Hi")
        try database.moderation.setBlock(blockerID: ids[1], blockedID: ids[0], on: true)
        #expect(throws: StorageError.forbidden) { try send(database, room.storedID, ids[0], "Hello?") }
        #expect(throws: StorageError.forbidden) { try send(database, room.storedID, ids[1], "Bye") }
    }

    @Test func groupsHoldAtMostTwentyAndCanBeLeft() throws {
        let database = try TestDatabase.fresh()
        let names = (0..<21).map { "runner\($0)" }
        var ids: [Int64] = []
        for name in names { ids += try database.members(name) }
        let crewID = try crew(database, owner: ids[0])
        for member in ids.dropFirst() { _ = try database.crews.joinCrew(id: crewID, userID: member, inviteCode: nil) }
        #expect(throws: StorageError.rejected) { try database.talk.createGroup(by: ids[0], memberIDs: Set(ids.dropFirst()), name: nil, now: now) }
        let group = try database.talk.createGroup(by: ids[0], memberIDs: Set(ids[1...19]), name: "Marathon", now: now)
        #expect(try database.talk.memberIDs(roomID: group.storedID).count == 20)
        try database.talk.leave(roomID: group.storedID, userID: ids[5])
        #expect(try database.talk.room(id: group.storedID, for: ids[5]) == nil)
        // A crew's room is left by leaving the crew, not here
        let crewRoom = try #require(try database.talk.crewRoom(crewID: crewID)).storedID
        #expect(throws: StorageError.notFound) { try database.talk.leave(roomID: crewRoom, userID: ids[5]) }
    }
}
