import Foundation

extension PushStore {
    // MARK: - The site's keys

    /// The key kept under `name`, made by `make` the first time: servers starting together
    /// agree on the first one written.
    public func siteKey(named name: String, make: () -> [UInt8]) throws -> [UInt8] {
        let fresh = make()
        return try database.write { db in
            try db.execute("INSERT INTO siteKeys (name, value, createdAt) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING", [name, Data(fresh), Date()])
            guard let kept = try db.value("SELECT value FROM siteKeys WHERE name = ?", [name], as: Data.self) else { throw StorageError.notFound }
            return [UInt8](kept)
        }
    }

    // MARK: - Devices

    /// Turns notifications on in a browser for the member signed in there. The browser's
    /// endpoint belongs to one session at a time: another member signing in on it and turning
    /// notifications on takes it over. At most `limit` devices a member (`full` past that).
    @discardableResult
    public func subscribePush(userID: Int64, sessionID: Int64, endpoint: String, p256dh: [UInt8], auth: [UInt8], name: String,
                              limit: Int = 10, now: Date = Date()) throws -> Int64 {
        try database.write { db in
            try db.execute("DELETE FROM pushSubscriptions WHERE endpoint = ?", [endpoint])
            let count = try db.value("SELECT count(*) FROM pushSubscriptions WHERE userID = ?", [userID], as: Int.self) ?? 0
            guard count < limit else { throw StorageError.full }
            guard let id = try db.value("""
                INSERT INTO pushSubscriptions (userID, sessionID, endpoint, p256dh, auth, name, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id
                """, [userID, sessionID, endpoint, Data(p256dh), Data(auth), name, now], as: Int64.self) else { throw StorageError.notFound }
            return id
        }
    }

    /// Turns a device off; only its member can.
    public func unsubscribePush(id: Int64, userID: Int64) throws {
        try database.write { db in
            guard try db.execute("DELETE FROM pushSubscriptions WHERE id = ? AND userID = ?", [id, userID]) == 1 else { throw StorageError.notFound }
        }
    }

    /// The member's devices, newest first; `sessionID`'s marked as this one.
    public func pushDevices(userID: Int64, sessionID: Int64?) throws -> [PushDevice] {
        try database.read { db in
            try db.fetchAll("SELECT id, name, createdAt, lastUsedAt, sessionID FROM pushSubscriptions WHERE userID = ? ORDER BY id DESC", [userID]) { row in
                PushDevice(id: try row.decode("id"), name: try row.decode("name"), createdAt: try row.decode("createdAt"),
                           lastUsedAt: try row.decode("lastUsedAt"), isCurrent: try row.decode("sessionID", as: Int64.self) == sessionID)
            }
        }
    }

    /// What the member wants pushed: every kind until they choose.
    public func pushKinds(userID: Int64) throws -> Set<PushKind> {
        try database.read { db in try database.pushKinds(db, userID: userID) }
    }

    public func setPushKinds(userID: Int64, _ kinds: Set<PushKind>) throws {
        let text = PushKind.allCases.filter(kinds.contains).map(\.rawValue).joined(separator: ",")
        try database.write { db in
            try db.execute("INSERT INTO pushPreferences (userID, kinds) VALUES (?, ?) ON CONFLICT (userID) DO UPDATE SET kinds = excluded.kinds", [userID, text])
        }
    }

    /// Pushes due now, oldest first, with where they go.
    public func duePushes(limit: Int = 100, now: Date = Date()) throws -> [PushDelivery] {
        try database.read { db in
            try db.fetchAll("""
                SELECT q.id, s.id AS subscriptionID, s.userID, s.endpoint, s.p256dh, s.auth, q.notificationID, q.messageID, q.attempts
                FROM pushQueue q JOIN pushSubscriptions s ON s.id = q.subscriptionID WHERE q.nextAttemptAt <= ? ORDER BY q.nextAttemptAt, q.id LIMIT ?
                """, [now, limit]) { row in
                PushDelivery(id: try row.decode("id"), subscriptionID: try row.decode("subscriptionID"), userID: try row.decode("userID"),
                             endpoint: try row.decode("endpoint"), p256dh: [UInt8](try row.decode("p256dh", as: Data.self)), auth: [UInt8](try row.decode("auth", as: Data.self)),
                             notificationID: try row.decode("notificationID"), messageID: try row.decode("messageID"),
                             attempts: try row.decode("attempts"))
            }
        }
    }

    /// The push went: off the queue, and the device marked as used.
    public func pushDelivered(_ delivery: PushDelivery, now: Date = Date()) throws {
        try database.write { db in
            try db.execute("DELETE FROM pushQueue WHERE id = ?", [delivery.id])
            try db.execute("UPDATE pushSubscriptions SET lastUsedAt = ? WHERE id = ?", [now, delivery.subscriptionID])
        }
    }

    /// Try again at `next`.
    public func pushDeferred(_ delivery: PushDelivery, next: Date) throws {
        try database.write { db in try db.execute("UPDATE pushQueue SET attempts = attempts + 1, nextAttemptAt = ? WHERE id = ?", [next, delivery.id]) }
    }

    /// Never to go (refused, too many tries, nothing left to say).
    public func pushDropped(_ delivery: PushDelivery) throws {
        try database.write { db in try db.execute("DELETE FROM pushQueue WHERE id = ?", [delivery.id]) }
    }

    /// The push service says the browser is gone: the device goes, with what was queued for it.
    public func pushSubscriptionGone(_ delivery: PushDelivery) throws {
        try database.write { db in try db.execute("DELETE FROM pushSubscriptions WHERE id = ?", [delivery.subscriptionID]) }
    }

    /// The notification a push is about, as the bell shows it, if it is still the member's.
    public func notificationItem(id: Int64, userID: Int64) throws -> NotificationItem? {
        try database.read { db in
            let found = try db.records(Notification.self, "SELECT \(Notification.selection.bare) FROM notifications WHERE id = ? AND userID = ?", [id, userID])
            return try database.items(db, found).first
        }
    }

    /// A room's message for a push, if the member is still in the room, it was not deleted and
    /// neither blocks the other.
    public func messageNews(id: Int64, for userID: Int64) throws -> MessageNews? {
        try database.read { db in
            guard let message = try db.record(Message.self, id: id), message.deletedAt == nil,
                  try database.talk.membership(db, roomID: message.roomID, userID: userID) != nil,
                  try !database.isBlocked(db, message.authorID, userID),
                  let room = try db.record(Room.self, id: message.roomID), let author = try db.record(User.self, id: message.authorID) else { return nil }
            let crew = try room.crewID.flatMap { try db.value("SELECT name FROM crews WHERE id = ?", [$0], as: String.self) }
            let meetup = try room.meetupID.flatMap { try db.value("SELECT title FROM meetups WHERE id = ?", [$0], as: String.self) }
            let place: String? = switch room.kind {
            case .crew: crew
            case .topic: [crew, room.name].compactMap { $0 }.joined(separator: " · ")
            case .meetup: meetup
            case .group: room.name
            case .direct: nil
            }
            return MessageNews(roomID: message.roomID, kind: room.kind, place: place, author: author, body: Message.preview(of: message.body, place: message.placeName))
        }
    }
}

extension AppDatabase {
    func pushKinds(_ db: SQLConnection, userID: Int64) throws -> Set<PushKind> {
        guard let kinds = try db.value("SELECT kinds FROM pushPreferences WHERE userID = ?", [userID], as: String.self) else {
            return Set(PushKind.allCases)
        }
        return Set(kinds.split(separator: ",").compactMap { PushKind(rawValue: String($0)) })
    }

    // MARK: - The queue

    /// Queues a push of the notification to each of the member's devices, in the transaction
    /// that notified them, unless they are silenced or suspended or did not ask for its kind.
    func enqueuePush(_ db: SQLConnection, userID: Int64, notificationID: Int64, kind: Notification.Kind, now: Date) throws {
        // Most members have no device: one indexed look, and nothing more.
        guard try hasDevice(db, userID: userID), try pushKinds(db, userID: userID).contains(PushKind(kind)), try isReachable(db, userID: userID, now: now) else { return }
        try db.execute("""
            INSERT INTO pushQueue (subscriptionID, notificationID, nextAttemptAt, createdAt) SELECT id, ?, ?, ? FROM pushSubscriptions WHERE userID = ?
            """, [notificationID, now, now, userID])
    }

    /// Queues a room's message for each of its members' devices but its author's, in the
    /// transaction that sent it: not to a member who muted the room (unless it mentions them)
    /// or did not ask for talk.
    func enqueueMessagePush(_ db: SQLConnection, roomID: Int64, messageID: Int64, authorID: Int64, mentions: [Int64] = [], now: Date) throws {
        let members = try db.values("""
            SELECT roomMembers.userID FROM roomMembers WHERE roomID = ?1 AND userID != ?2 AND state = 'joined'
                AND (mutedUntil IS NULL OR mutedUntil <= ?3 OR userID IN (\(db.idList("?4"))))
                AND EXISTS (SELECT 1 FROM pushSubscriptions WHERE pushSubscriptions.userID = roomMembers.userID)
            """, [roomID, authorID, now, SQLConnection.jsonArray(Set(mentions))], as: Int64.self)
        for userID in members {
            guard try pushKinds(db, userID: userID).contains(.talk), try isReachable(db, userID: userID, now: now) else { continue }
            try db.execute("""
                INSERT INTO pushQueue (subscriptionID, messageID, nextAttemptAt, createdAt) SELECT id, ?, ?, ? FROM pushSubscriptions WHERE userID = ?
                """, [messageID, now, now, userID])
        }
    }

    fileprivate func hasDevice(_ db: SQLConnection, userID: Int64) throws -> Bool {
        try db.value("SELECT EXISTS (SELECT 1 FROM pushSubscriptions WHERE userID = ?)", [userID], as: Bool.self) ?? false
    }

    fileprivate func isReachable(_ db: SQLConnection, userID: Int64, now: Date) throws -> Bool {
        try db.value("""
            SELECT EXISTS (SELECT 1 FROM users WHERE id = ? AND (suspendedUntil IS NULL OR suspendedUntil <= ?) AND (silencedUntil IS NULL OR silencedUntil <= ?))
            """, [userID, now, now], as: Bool.self) ?? false
    }
}
