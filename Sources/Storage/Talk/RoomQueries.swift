import Foundation

extension TalkStore {
    // MARK: - Starting conversations

    /// The direct conversation between two members, started by `starterID` if they have none.
    /// Refused (`forbidden`) while either blocks the other, or when the other lets nobody, or
    /// not this starter, begin one (`WhoMayStart`). A starter the other neither follows nor
    /// shares a crew with lands in their requests until accepted.
    public func directRoom(from starterID: Int64, to otherID: Int64, now: Date = Date()) throws -> Room {
        guard starterID != otherID else { throw StorageError.forbidden }
        return try database.write { db in
            if let room = try db.record(Room.self, "SELECT \(Room.selection.bare) FROM rooms WHERE directKey = ?", [Room.directKey(starterID, otherID)]) {
                if try database.isBlocked(db, starterID, otherID) { throw StorageError.forbidden }
                // Declined before: the other is asked again, as the first time.
                if try membership(db, roomID: room.storedID, userID: starterID) == nil {
                    try addMember(db, roomID: room.storedID, userID: starterID, state: .joined, now: now)
                }
                if try membership(db, roomID: room.storedID, userID: otherID) == nil {
                    try addMember(db, roomID: room.storedID, userID: otherID, state: try welcome(db, from: starterID, to: otherID), now: now)
                }
                return room
            }
            let state = try welcome(db, from: starterID, to: otherID)
            var room = Room(kind: .direct, directKey: Room.directKey(starterID, otherID), createdBy: starterID, createdAt: now, lastMessageAt: now)
            room.id = try db.insert(room)
            try addMember(db, roomID: room.storedID, userID: starterID, state: .joined, now: now)
            try addMember(db, roomID: room.storedID, userID: otherID, state: state, now: now)
            return room
        }
    }

    /// A small group of `memberIDs` (the starter added), each of whom lets the starter begin a
    /// conversation; at most `Room.groupLimit` in all.
    public func createGroup(by starterID: Int64, memberIDs: Set<Int64>, name: String?, now: Date = Date()) throws -> Room {
        let others = memberIDs.subtracting([starterID])
        guard !others.isEmpty, others.count < Room.groupLimit else { throw StorageError.rejected }
        return try database.write { db in
            var states: [Int64: RoomMembership.State] = [:]
            for other in others { states[other] = try welcome(db, from: starterID, to: other) }
            var room = Room(kind: .group, name: name, createdBy: starterID, createdAt: now, lastMessageAt: now)
            room.id = try db.insert(room)
            try addMember(db, roomID: room.storedID, userID: starterID, state: .joined, now: now)
            for (other, state) in states { try addMember(db, roomID: room.storedID, userID: other, state: state, now: now) }
            return room
        }
    }

    /// A topic room of a crew, made by its staff, open to all its members.
    public func createTopicRoom(crewID: Int64, by userID: Int64, name: String, now: Date = Date()) throws -> Room {
        try database.write { db in
            try database.requireStaff(db, crewID: crewID, userID: userID)
            var room = Room(kind: .topic, crewID: crewID, name: name, createdBy: userID, createdAt: now, lastMessageAt: now)
            room.id = try db.insert(room)
            try db.execute("""
                INSERT INTO roomMembers (roomID, userID, lastMessageAt, joinedAt)
                SELECT ?, userID, ?, ? FROM crewMembers WHERE crewID = ? AND role != 'pending'
                """, [room.id, now, now, crewID])
            db.changed(.crew(crewID: crewID))
            return room
        }
    }

    /// Archives a topic room (its staff): it stays readable and takes no new messages.
    public func archive(roomID: Int64, by userID: Int64, now: Date = Date()) throws {
        try database.write { db in
            guard let room = try db.record(Room.self, id: roomID), room.kind == .topic, let crewID = room.crewID else { throw StorageError.notFound }
            try database.requireStaff(db, crewID: crewID, userID: userID)
            try db.execute("UPDATE rooms SET archivedAt = ? WHERE id = ?", [now, roomID])
            db.changed(.room(roomID: roomID))
        }
    }

    /// Whether `starterID` may begin a conversation with `otherID`, and where it lands.
    private func welcome(_ db: SQLConnection, from starterID: Int64, to otherID: Int64) throws -> RoomMembership.State {
        guard try db.exists(User.self, id: otherID), try !database.isBlocked(db, starterID, otherID) else { throw StorageError.forbidden }
        let rule = try db.value("SELECT whoMayStart FROM talkSettings WHERE userID = ?", [otherID], as: String.self)
            .flatMap(WhoMayStart.init(rawValue:)) ?? .anyone
        let follows = try db.value("SELECT EXISTS (SELECT 1 FROM follows WHERE followerID = ? AND followeeID = ?)", [otherID, starterID], as: Bool.self) ?? false
        let crewmates = try db.value("""
            SELECT EXISTS (SELECT 1 FROM crewMembers mine JOIN crewMembers theirs ON theirs.crewID = mine.crewID
                WHERE mine.userID = ? AND theirs.userID = ? AND mine.role != 'pending' AND theirs.role != 'pending')
            """, [starterID, otherID], as: Bool.self) ?? false
        switch rule {
        case .nobody: throw StorageError.forbidden
        case .following where !follows: throw StorageError.forbidden
        case .crewmates where !crewmates: throw StorageError.forbidden
        default: return follows || crewmates ? .joined : .request
        }
    }

    private func addMember(_ db: SQLConnection, roomID: Int64, userID: Int64, state: RoomMembership.State, now: Date) throws {
        try db.execute("INSERT INTO roomMembers (roomID, userID, state, lastMessageAt, joinedAt) VALUES (?, ?, ?, ?, ?)",
                       [roomID, userID, state.rawValue, now, now])
    }

    // MARK: - A member's place in a room

    /// Takes a request into the inbox: the member may answer.
    public func accept(roomID: Int64, userID: Int64) throws {
        try database.write { db in
            guard try db.execute("UPDATE roomMembers SET state = 'joined' WHERE roomID = ? AND userID = ? AND state = 'request'", [roomID, userID]) == 1
            else { throw StorageError.notFound }
        }
    }

    /// Leaves a group or turns down a request; a crew's rooms are left by leaving the crew.
    public func leave(roomID: Int64, userID: Int64) throws {
        try database.write { db in
            guard let room = try db.record(Room.self, id: roomID), !room.isKept,
                  try db.execute("DELETE FROM roomMembers WHERE roomID = ? AND userID = ?", [roomID, userID]) == 1
            else { throw StorageError.notFound }
            db.changed(.room(roomID: roomID))
        }
    }

    /// Mutes the room for the member until `until` (nil: unmutes).
    public func mute(roomID: Int64, userID: Int64, until: Date?) throws {
        try database.write { db in
            guard try db.execute("UPDATE roomMembers SET mutedUntil = ? WHERE roomID = ? AND userID = ?", [until, roomID, userID]) == 1
            else { throw StorageError.notFound }
        }
    }

    /// Marks the room read up to the message `messageID` (never back), and counts exactly what
    /// is left after it.
    public func markRead(roomID: Int64, userID: Int64, upTo messageID: Int64) throws {
        try database.write { db in
            try db.execute("""
                UPDATE roomMembers SET lastReadID = ?3, unread = (
                    SELECT count(*) FROM messages WHERE roomID = ?1 AND id > ?3 AND authorID != ?2 AND deletedAt IS NULL)
                WHERE roomID = ?1 AND userID = ?2 AND lastReadID < ?3
                """, [roomID, userID, messageID])
        }
    }

    /// Marks the room read up to `messageID` for the members who had it open as it arrived.
    public func markRead(roomID: Int64, userIDs: Set<Int64>, upTo messageID: Int64) throws {
        guard !userIDs.isEmpty else { return }
        try database.write { db in
            try db.execute("""
                UPDATE roomMembers SET lastReadID = ?3, unread = (
                    SELECT count(*) FROM messages WHERE roomID = ?1 AND id > ?3 AND authorID != roomMembers.userID AND deletedAt IS NULL)
                WHERE roomID = ?1 AND userID IN (\(db.idList("?2"))) AND lastReadID < ?3 AND state = 'joined'
                """, [roomID, SQLConnection.jsonArray(userIDs), messageID])
        }
    }

    // MARK: - Reads

    /// The room and the member's place in it; nil when they are not in it (or it does not exist).
    public func room(id: Int64, for userID: Int64) throws -> (room: Room, membership: RoomMembership)? {
        try database.readRows { db in
            try db.fetchOne("""
                SELECT \(Room.selection.qualified), \(RoomMembership.selection.qualified)
                FROM rooms JOIN roomMembers ON roomMembers.roomID = rooms.id WHERE rooms.id = ? AND roomMembers.userID = ?
                """, [id, userID]) { row in
                (try Room(row: row, startingAt: 0), try RoomMembership(row: row, startingAt: Room.selection.count))
            }
        }
    }

    /// A meetup's talk.
    public func meetupRoom(meetupID: Int64) throws -> Room? {
        try database.readRows { db in try db.record(Room.self, "SELECT \(Room.selection.bare) FROM rooms WHERE meetupID = ?", [meetupID]) }
    }

    /// A crew's own room.
    public func crewRoom(crewID: Int64) throws -> Room? {
        try database.readRows { db in try db.record(Room.self, "SELECT \(Room.selection.bare) FROM rooms WHERE crewID = ? AND kind = 'crew'", [crewID]) }
    }

    /// A crew's topic rooms, oldest first, archived ones last.
    public func topicRooms(crewID: Int64) throws -> [Room] {
        try database.readRows { db in
            try db.records(Room.self, "SELECT \(Room.selection.bare) FROM rooms WHERE crewID = ? AND kind = 'topic' ORDER BY archivedAt IS NOT NULL, id", [crewID])
        }
    }

    /// The members of a room, by display name.
    public func members(roomID: Int64) throws -> [Author] {
        try database.readRows { db in
            try db.fetchAll("""
                SELECT \(Author.selection.qualified) FROM roomMembers JOIN users ON users.id = roomMembers.userID
                WHERE roomMembers.roomID = ? ORDER BY users.displayName, users.id
                """, [roomID]) { try Author(row: $0, startingAt: 0) }
        }
    }

    /// The member's rooms, newest message first: `limit` of them from before `before` (a time
    /// of a last message), one index range whatever the number of rooms; a meetup's talk once
    /// someone has written in it. `requests` lists the conversations waiting to be accepted
    /// instead.
    public func inbox(userID: Int64, requests: Bool = false, before: Date? = nil, limit: Int = 30) throws -> [InboxEntry] {
        try database.readRows { db in
            let entries = try db.fetchAll("""
                SELECT \(Room.selection.qualified), \(RoomMembership.selection.qualified), crews.name AS crewName, crews.slug AS crewSlug,
                    meetups.title AS meetupTitle,
                    lastAuthor.displayName AS lastAuthor, CASE WHEN last.deletedAt IS NULL THEN last.body END AS lastBody, last.placeName AS lastPlace
                FROM roomMembers JOIN rooms ON rooms.id = roomMembers.roomID
                LEFT JOIN crews ON crews.id = rooms.crewID
                LEFT JOIN meetups ON meetups.id = rooms.meetupID
                LEFT JOIN messages last ON last.id = rooms.lastMessageID
                LEFT JOIN users lastAuthor ON lastAuthor.id = last.authorID
                WHERE roomMembers.userID = ?1 AND roomMembers.state = ?2 AND roomMembers.lastMessageAt < ?3
                    AND (rooms.kind != 'meetup' OR rooms.lastMessageID > 0)
                ORDER BY roomMembers.lastMessageAt DESC LIMIT ?4
                """, [userID, requests ? "request" : "joined", before ?? Date.distantFuture, limit]) { row in
                InboxEntry(
                    room: try Room(row: row, startingAt: 0), membership: try RoomMembership(row: row, startingAt: Room.selection.count),
                    crewName: try row.decode("crewName"), crewSlug: try row.decode("crewSlug"), meetupTitle: try row.decode("meetupTitle"),
                    others: [], lastAuthor: try row.decode("lastAuthor"), lastBody: try row.decode("lastBody"), lastPlace: try row.decode("lastPlace"))
            }
            // Who else is in each conversation, for its name: one statement for the whole page.
            let conversations = entries.compactMap { $0.room.kind == .direct || $0.room.kind == .group ? $0.room.id : nil }
            guard !conversations.isEmpty else { return entries }
            let marks = Array(repeating: "?", count: conversations.count).joined(separator: ", ")
            var others: [Int64: [String]] = [:]
            try db.run("""
                SELECT roomMembers.roomID, users.displayName FROM roomMembers JOIN users ON users.id = roomMembers.userID
                WHERE roomMembers.roomID IN (\(marks)) AND roomMembers.userID != ? ORDER BY roomMembers.roomID, users.displayName
                """, conversations + [userID]) { row in
                let roomID: Int64 = try row.decode("roomID")
                if others[roomID, default: []].count < 3 { others[roomID, default: []].append(try row.decode("displayName")) }
            }
            return entries.map { entry in
                var entry = entry
                entry.others = entry.room.id.flatMap { others[$0] } ?? []
                return entry
            }
        }
    }

    /// How many conversations wait in the member's requests.
    public func requestCount(userID: Int64) throws -> Int {
        try database.readRows { db in
            try db.value("SELECT count(*) FROM roomMembers WHERE userID = ? AND state = 'request'", [userID], as: Int.self) ?? 0
        }
    }

    /// Messages waiting in the member's rooms, muted ones left out: the header's count.
    public func unreadCount(userID: Int64, now: Date = Date()) throws -> Int {
        try database.readRows { db in
            try db.value("""
                SELECT coalesce(sum(unread), 0) FROM roomMembers
                WHERE userID = ? AND unread > 0 AND state = 'joined' AND (mutedUntil IS NULL OR mutedUntil <= ?)
                """, [userID, now], as: Int.self) ?? 0
        }
    }

    /// The member ids of a room: who a new message there is for.
    public func memberIDs(roomID: Int64) throws -> Set<Int64> {
        try database.readRows { db in Set(try db.values("SELECT userID FROM roomMembers WHERE roomID = ?", [roomID], as: Int64.self)) }
    }

    /// Who may delete anyone's message in the room: its crew's staff, for a crew's rooms.
    public func staffIDs(roomID: Int64) throws -> Set<Int64> {
        try database.readRows { db in
            Set(try db.values("""
                SELECT crewMembers.userID FROM rooms JOIN crewMembers ON crewMembers.crewID = rooms.crewID
                WHERE rooms.id = ? AND rooms.kind IN ('crew', 'topic') AND crewMembers.role IN ('owner', 'staff')
                """, [roomID], as: Int64.self))
        }
    }

    // MARK: - Settings

    public func whoMayStart(userID: Int64) throws -> WhoMayStart {
        try database.readRows { db in
            try db.value("SELECT whoMayStart FROM talkSettings WHERE userID = ?", [userID], as: String.self).flatMap(WhoMayStart.init(rawValue:)) ?? .anyone
        }
    }

    public func setWhoMayStart(_ rule: WhoMayStart, userID: Int64) throws {
        try database.write { db in
            try db.execute("""
                INSERT INTO talkSettings (userID, whoMayStart) VALUES (?, ?) ON CONFLICT (userID) DO UPDATE SET whoMayStart = excluded.whoMayStart
                """, [userID, rule.rawValue])
        }
    }

    func membership(_ db: SQLConnection, roomID: Int64, userID: Int64) throws -> RoomMembership? {
        try db.fetchOne("SELECT \(RoomMembership.selection.bare) FROM roomMembers WHERE roomID = ? AND userID = ?", [roomID, userID]) {
            try RoomMembership(row: $0, startingAt: 0)
        }
    }
}

extension Room {
    init(kind: Kind, crewID: Int64? = nil, name: String? = nil, directKey: String? = nil, createdBy: Int64, createdAt: Date, lastMessageAt: Date) {
        self.kind = kind
        self.crewID = crewID
        self.meetupID = nil
        self.name = name
        self.directKey = directKey
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.lastMessageID = 0
        self.lastMessageAt = lastMessageAt
    }
}
