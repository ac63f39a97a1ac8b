import Foundation

extension TalkStore {
    // MARK: - Writes

    /// Sends a message (with its photos, already in the media folder) in one transaction: the
    /// room's newest, one more unread for each other member, read up to here for its author.
    /// Only a joined member of a room that is not archived may send; in a direct
    /// conversation, not while either blocks the other. The members it `mentions` are pushed
    /// even where they muted the room.
    public func send(_ message: Message, photos: [NewPhoto] = [], mentions: [Int64] = [], now: Date = Date()) throws -> Message {
        try database.write { db in try send(db, message, photos: photos, mentions: mentions, now: now) }
    }

    /// `send` inside a write of the caller's (a meetup's talk, checked first).
    func send(_ db: SQLConnection, _ message: Message, photos: [NewPhoto] = [], mentions: [Int64] = [], now: Date) throws -> Message {
        guard photos.count <= MessagePhoto.maximumCount else { throw StorageError.forbidden }
        guard let room = try db.record(Room.self, id: message.roomID), room.archivedAt == nil,
              let membership = try membership(db, roomID: message.roomID, userID: message.authorID) else { throw StorageError.notFound }
        guard membership.state == .joined else { throw StorageError.forbidden }
        if room.kind == .direct,
           let other = try db.value("SELECT userID FROM roomMembers WHERE roomID = ? AND userID != ?", [message.roomID, message.authorID], as: Int64.self),
           try database.isBlocked(db, message.authorID, other) {
            throw StorageError.forbidden
        }
        if let replyTo = message.replyToID {
            guard try db.value("SELECT roomID FROM messages WHERE id = ?", [replyTo], as: Int64.self) == message.roomID else { throw StorageError.notFound }
        }
        var message = message
        message.createdAt = now
        message.id = try db.insert(message)
        let id = try message.storedID
        for (position, photo) in photos.enumerated() { _ = try db.insert(MessagePhoto(messageID: id, position: position, photo)) }
        try db.execute("UPDATE rooms SET lastMessageID = ?, lastMessageAt = ? WHERE id = ?", [id, now, message.roomID])
        try db.execute("""
            UPDATE roomMembers SET lastMessageAt = ?1,
                unread = CASE WHEN userID = ?3 THEN 0 ELSE unread + 1 END,
                lastReadID = CASE WHEN userID = ?3 THEN ?4 ELSE lastReadID END
            WHERE roomID = ?2
            """, [now, message.roomID, message.authorID, id])
        try database.enqueueMessagePush(db, roomID: message.roomID, messageID: id, authorID: message.authorID, mentions: mentions, now: now)
        db.changed(.room(roomID: message.roomID))
        // A meetup's page follows its talk.
        if let meetupID = room.meetupID { db.changed(.talk(meetupID: meetupID)) }
        return message
    }

    /// Changes the text of one's own message within `Message.editWindow`.
    public func edit(messageID: Int64, by userID: Int64, body: String, bodyHTML: String, now: Date = Date()) throws -> Message {
        try database.write { db in
            guard var message = try db.record(Message.self, id: messageID),
                  try membership(db, roomID: message.roomID, userID: userID) != nil else { throw StorageError.notFound }
            guard message.isEditable(by: userID, at: now) else { throw StorageError.forbidden }
            message.body = body
            message.bodyHTML = bodyHTML
            message.editedAt = now
            try db.update(message)
            db.changed(.message(roomID: message.roomID, messageID: messageID))
            return message
        }
    }

    /// Deletes a message, leaving a tombstone: its author may, and in a crew's rooms its staff.
    /// Unread counts that held it are counted again. Returns its photos' files, for the
    /// caller to remove from the media folder.
    @discardableResult
    public func delete(messageID: Int64, by userID: Int64, now: Date = Date()) throws -> [String] {
        try database.write { db in
            guard let message = try db.record(Message.self, id: messageID), message.deletedAt == nil,
                  let room = try db.record(Room.self, id: message.roomID),
                  try membership(db, roomID: message.roomID, userID: userID) != nil else { throw StorageError.notFound }
            if message.authorID != userID {
                guard room.isCrews, let crewID = room.crewID else { throw StorageError.forbidden }
                try database.requireStaff(db, crewID: crewID, userID: userID)
            }
            let files = try tombstone(db, messageID: messageID, now: now)
            // Reports of it are answered.
            try db.execute("UPDATE reports SET resolvedAt = ?, resolution = 'delete' WHERE targetType = 'message' AND targetID = ? AND resolvedAt IS NULL",
                           [now, messageID])
            return files
        }
    }

    /// Empties a message to its tombstone inside a write (its author, staff or moderators
    /// deleting it); the members who had not read it have one fewer waiting. Returns its
    /// photos' files, gone from the database, for the caller to remove once committed.
    func tombstone(_ db: SQLConnection, messageID: Int64, now: Date) throws -> [String] {
        guard var message = try db.record(Message.self, id: messageID), message.deletedAt == nil else { return [] }
        message.body = ""
        message.bodyHTML = ""
        message.placeName = nil
        message.latitude = nil
        message.longitude = nil
        message.deletedAt = now
        try db.update(message)
        let files = try db.values("SELECT fileName FROM messagePhotos WHERE messageID = ?", [messageID], as: String.self)
        try db.execute("DELETE FROM messagePhotos WHERE messageID = ?", [messageID])
        try db.execute("UPDATE roomMembers SET unread = unread - 1 WHERE roomID = ? AND lastReadID < ? AND unread > 0 AND userID != ?",
                       [message.roomID, messageID, message.authorID])
        // Counts changed for members who had not read it.
        db.changed(.room(roomID: message.roomID))
        db.changed(.message(roomID: message.roomID, messageID: messageID))
        return files
    }

    /// Whether the member is in the room of the message.
    public func canRead(messageID: Int64, userID: Int64) throws -> Bool {
        try database.readRows { db in try canRead(db, messageID: messageID, userID: userID) }
    }

    func canRead(_ db: SQLConnection, messageID: Int64, userID: Int64) throws -> Bool {
        try db.value("""
            SELECT count(*) FROM messages JOIN roomMembers ON roomMembers.roomID = messages.roomID
            WHERE messages.id = ? AND roomMembers.userID = ? AND roomMembers.state = 'joined'
            """, [messageID, userID], as: Int.self) == 1
    }

    /// The messages around one, for a report's reader: up to `count` before and after it.
    public func context(of messageID: Int64, count: Int = 3) throws -> [MessageItem] {
        guard let message = try message(id: messageID) else { return [] }
        return try messages(roomID: message.roomID, before: messageID + 1, limit: count + 1)
            + messages(roomID: message.roomID, after: messageID, limit: count)
    }

    // MARK: - Reads

    /// Up to `limit` messages of the room before the message `before` (the newest without),
    /// oldest first, with their authors and what they reply to; none by anyone `viewerID`
    /// blocks or is blocked by.
    public func messages(roomID: Int64, before: Int64? = nil, viewerID: Int64? = nil, limit: Int = 50) throws -> [MessageItem] {
        try database.readRows { db in
            try items(db, where: "messages.roomID = ?1 AND messages.id < ?2", orderedBy: "messages.id DESC", [roomID, before ?? Int64.max],
                      viewerID: viewerID, limit: limit).reversed()
        }
    }

    /// Up to `limit` messages of the room after the message `after`, oldest first.
    public func messages(roomID: Int64, after: Int64, viewerID: Int64? = nil, limit: Int = 50) throws -> [MessageItem] {
        try database.readRows { db in
            try items(db, where: "messages.roomID = ?1 AND messages.id > ?2", orderedBy: "messages.id", [roomID, after], viewerID: viewerID, limit: limit)
        }
    }

    /// One message of a room as the room shows it, for everyone (blocks are the caller's).
    public func item(roomID: Int64, messageID: Int64) throws -> MessageItem? {
        try database.readRows { db in
            try items(db, where: "messages.roomID = ?1 AND messages.id = ?2", orderedBy: "messages.id", [roomID, messageID], viewerID: nil, limit: 1).first
        }
    }

    public func message(id: Int64) throws -> Message? {
        try database.readRows { db in try db.record(Message.self, id: id) }
    }

    private func items(_ db: SQLConnection, where condition: String, orderedBy order: String, _ arguments: [(any SQLBindable)?],
                       viewerID: Int64?, limit: Int) throws -> [MessageItem] {
        let items = try db.fetchAll("""
            SELECT \(Message.selection.qualified), \(Author.selection.qualified), quoted.id AS quoteID, quotedAuthor.displayName AS quoteAuthor, quoted.body AS quoteBody
            FROM messages JOIN users ON users.id = messages.authorID
            LEFT JOIN messages quoted ON quoted.id = messages.replyToID
            LEFT JOIN users quotedAuthor ON quotedAuthor.id = quoted.authorID
            WHERE \(condition) AND \(AppDatabase.unblocked(viewer: "?3", "messages.authorID")) ORDER BY \(order) LIMIT ?4
            """, arguments + [viewerID, limit]) { row in
            let quoteID: Int64? = try row.decode("quoteID")
            return MessageItem(
                message: try Message(row: row, startingAt: 0), author: try Author(row: row, startingAt: Message.selection.count),
                replyTo: try quoteID.map { MessageItem.Quote(id: $0, authorName: try row.decode("quoteAuthor"), body: try row.decode("quoteBody")) })
        }
        return try withPhotos(db, items)
    }

    /// The items with their photos, read in one statement for all of them.
    private func withPhotos(_ db: SQLConnection, _ items: [MessageItem]) throws -> [MessageItem] {
        let ids = items.compactMap { $0.message.deletedAt == nil ? $0.message.id : nil }
        guard !ids.isEmpty else { return items }
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        let photos = Dictionary(grouping: try db.records(MessagePhoto.self, """
            SELECT \(MessagePhoto.selection.bare) FROM messagePhotos WHERE messageID IN (\(marks)) ORDER BY messageID, position
            """, ids), by: \.messageID)
        guard !photos.isEmpty else { return items }
        return items.map { item in
            var item = item
            item.photos = item.message.id.flatMap { photos[$0] } ?? []
            return item
        }
    }
}
