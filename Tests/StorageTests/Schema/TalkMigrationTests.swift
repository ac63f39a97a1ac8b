import Foundation
import GRDB
import Testing
@testable import Storage

/// V30 on a site that already has crews and meetup talk: every crew gets its room with its
/// members, every meetup's talk becomes a room with its messages, read by all.
@Suite struct TalkMigrationTests {
    @Test func crewsAndMeetupTalkFromBeforeBecomeRooms() throws {
        // Given a site as it was before talk: a crew of two and a meetup's talk of two messages
        let queue = try DatabaseQueue()
        try Migrations.migrator.migrate(queue, upTo: "v29 search keys")
        let then = Date(timeIntervalSince1970: 1_790_000_000)
        try queue.write { db in
            for (id, name) in [(1, "host"), (2, "mina"), (3, "jun")] {
                try db.execute(sql: "INSERT INTO users (id, username, email, passwordHash, displayName, createdAt) VALUES (?, ?, ?, 'x', ?, ?)",
                               arguments: [id, name, "\(name)@example.com", name.capitalized, then])
            }
        }
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO crews (id, slug, name, sport, joinPolicy, createdAt, lastActivityAt, memberCount) VALUES (1, 'dawn', 'Dawn', 'running', 'open', ?, ?, 2)
                """, arguments: [then, then])
            try db.execute(sql: "INSERT INTO crewMembers (crewID, userID, role, joinedAt) VALUES (1, 1, 'owner', ?), (1, 2, 'member', ?), (1, 3, 'pending', ?)",
                           arguments: [then, then, then])
        }
        try insertMeetupWithTalk(queue, at: then)

        // When the migrations run
        let migrated = try AppDatabase(queue)

        // Then the crew's room holds its members, not the one waiting
        let crewRoom = try #require(try migrated.talk.crewRoom(crewID: 1))
        #expect(try migrated.talk.memberIDs(roomID: crewRoom.storedID) == [1, 2])
        // And the meetup's talk is a room of its host and those accepted, its messages kept with
        // their ids, nothing unread
        let meetupRoom = try #require(try migrated.talk.meetupRoom(meetupID: 1))
        #expect(try migrated.talk.memberIDs(roomID: meetupRoom.storedID) == [1, 2])
        #expect(try migrated.talk.messages(roomID: meetupRoom.storedID).map(\.message.body) == ["Gate 2", "On my way"])
        #expect(try migrated.talk.messages(roomID: meetupRoom.storedID).map(\.message.id) == [7, 9])
        #expect(meetupRoom.lastMessageID == 9)
        #expect(try migrated.talk.unreadCount(userID: 2) == 0)
        // A new message continues after the old ids
        let next = try migrated.talk.send(Message(roomID: meetupRoom.storedID, authorID: 1, body: "Starting", bodyHTML: "<p>Starting</p>", createdAt: Date()))
        #expect(try next.storedID > 9)
        #expect(try migrated.talk.unreadCount(userID: 2) == 1)
    }

    private func insertMeetupWithTalk(_ queue: DatabaseQueue, at then: Date) throws {
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO meetups (id, hostID, title, description, descriptionHTML, startsAt, durationMinutes, placeName, address, placeNote,
                    timeSlot, pace, style, capacity, signupMode, deadline, afterParty, genderRule, jobs, acceptedCount, sequence, createdAt, updatedAt)
                VALUES (1, 1, 'Dawn 10K', '', '', ?, 60, 'Yeouido', '', '', 'weekend', 'average', 'run', 5, 'firstCome', ?, 0, 'any', '', 1, 0, ?, ?)
                """, arguments: [then.addingTimeInterval(86_400), then.addingTimeInterval(86_400), then, then])
            try db.execute(sql: "INSERT INTO meetupApplications (meetupID, userID, status, queuedAt) VALUES (1, 2, 'accepted', ?), (1, 3, 'waitlisted', ?)",
                           arguments: [then, then])
            try db.execute(sql: "INSERT INTO meetupTalk (id, meetupID, authorID, body, bodyHTML, createdAt) VALUES (7, 1, 1, 'Gate 2', '<p>Gate 2</p>', ?), (9, 1, 2, 'On my way', '<p>On my way</p>', ?)",
                           arguments: [then, then.addingTimeInterval(60)])
        }
    }
}
