import Foundation
import Testing
import TestSupport
@testable import Storage

@Suite struct MessageQueriesTests {
    let now = Date(timeIntervalSince1970: 1_795_809_600)

    func room(_ database: AppDatabase) throws -> (room: Int64, mina: Int64, jun: Int64) {
        let ids = try database.members("mina", "jun")
        try database.profiles.follow(followerID: ids[1], followeeID: ids[0])
        let room = try database.talk.directRoom(from: ids[0], to: ids[1], now: now)
        return (try room.storedID, ids[0], ids[1])
    }

    func send(_ database: AppDatabase, _ roomID: Int64, _ authorID: Int64, _ body: String, replyTo: Int64? = nil) throws -> Message {
        try database.talk.send(Message(roomID: roomID, authorID: authorID, body: body, bodyHTML: "<p>\(body)</p>", replyToID: replyTo, createdAt: now), now: now)
    }

    @Test func messagesPageBackByTheirIds() throws {
        let database = try TestDatabase.fresh()
        let (room, mina, _) = try room(database)
        let sent = try (1...7).map { try send(database, room, mina, "m\($0)").storedID }
        let newest = try database.talk.messages(roomID: room, limit: 3)
        #expect(newest.map(\.message.body) == ["m5", "m6", "m7"])
        #expect(try database.talk.messages(roomID: room, before: newest[0].message.id, limit: 3).map(\.message.body) == ["m2", "m3", "m4"])
        #expect(try database.talk.messages(roomID: room, after: sent[4], limit: 5).map(\.message.body) == ["m6", "m7"])
    }

    @Test func aReplyQuotesAMessageOfTheSameRoom() throws {
        let database = try TestDatabase.fresh()
        let (room, mina, jun) = try room(database)
        let question = try send(database, room, mina, "7am?")
        _ = try send(database, room, jun, "Yes", replyTo: try question.storedID)
        let quote = try #require(try database.talk.messages(roomID: room).last?.replyTo)
        #expect(quote.authorName == "Mina" && quote.body == "7am?")
        // A message of another room cannot be quoted
        let ids = try database.members("ara")
        let other = try database.talk.directRoom(from: ids[0], to: mina, now: now).storedID
        let elsewhere = try send(database, other, ids[0], "Elsewhere")
        #expect(throws: StorageError.notFound) { try send(database, room, jun, "x", replyTo: try elsewhere.storedID) }
    }

    @Test func onlyTheAuthorEditsWithinFifteenMinutes() throws {
        let database = try TestDatabase.fresh()
        let (room, mina, jun) = try room(database)
        let message = try send(database, room, mina, "See you at 7")
        #expect(throws: StorageError.forbidden) { try database.talk.edit(messageID: try message.storedID, by: jun, body: "x", bodyHTML: "x", now: now) }
        let edited = try database.talk.edit(messageID: try message.storedID, by: mina, body: "See you at 7:30", bodyHTML: "<p>7:30</p>", now: now.addingTimeInterval(60))
        #expect(edited.editedAt != nil && edited.body == "See you at 7:30")
        #expect(throws: StorageError.forbidden) {
            try database.talk.edit(messageID: try message.storedID, by: mina, body: "late", bodyHTML: "late", now: now.addingTimeInterval(Message.editWindow))
        }
    }

    @Test func aDeletedMessageLeavesATombstone() throws {
        let database = try TestDatabase.fresh()
        let (room, mina, jun) = try room(database)
        let message = try send(database, room, mina, "secret")
        _ = try send(database, room, jun, "what?", replyTo: try message.storedID)
        #expect(throws: StorageError.forbidden) { try database.talk.delete(messageID: try message.storedID, by: jun, now: now) }
        try database.talk.delete(messageID: try message.storedID, by: mina, now: now)
        let thread = try database.talk.messages(roomID: room)
        #expect(thread.count == 2)
        #expect(thread[0].message.deletedAt != nil && thread[0].message.body.isEmpty && thread[0].message.bodyHTML.isEmpty)
        #expect(thread[1].replyTo?.body == "")
    }

    @Test func theSchemaRefusesWhatTheFormWouldNeverSend() throws {
        let database = try TestDatabase.fresh()
        let (room, mina, _) = try room(database)
        #expect(throws: StorageError.rejected) { try send(database, room, mina, String(repeating: "가", count: Message.maximumLength + 1)) }
        #expect(try database.talk.messages(roomID: room).isEmpty)
        // Someone not in the room cannot write in it
        let ara = try database.members("ara")[0]
        #expect(throws: StorageError.notFound) { try send(database, room, ara, "let me in") }
    }
}
