import Foundation

/// Filters of the meetup list; every one optional, all kept in the URL.
public struct MeetupFilter: Sendable {
    public var from: Date?
    public var to: Date?
    public var sport: Meetup.Sport?
    public var timeSlot: Meetup.TimeSlot?
    public var region: String?
    public var minDistance: Double?
    public var maxDistance: Double?
    public var pace: Meetup.Pace?
    public var genderRule: Meetup.GenderRule?
    /// Meetups whose age range admits this age.
    public var age: Int?
    /// Meetups open to this job category.
    public var job: String?
    /// Only meetups still taking signups.
    public var openOnly = false
    /// Only meetups for verified office workers.
    public var workplaceOnly = false
    public var keyword: String?
    /// Meetups whose title contains this text, found through `nameKeys` (suggestions).
    public var named: String?
    public var crewID: Int64?
    /// Meetups whose meeting point lies in these ranges (a near search's first cut).
    public var area: (latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>)?

    public init() {}
}

/// A position in the meetup list: the start time and id of the last meetup shown.
public struct MeetupCursor: Sendable, Equatable {
    public var startsAt: Date
    public var id: Int64

    public init(startsAt: Date, id: Int64) {
        self.startsAt = startsAt
        self.id = id
    }
}

/// What a meetup's card shows changes only with these: an edit (`updatedAt`), a signup or a
/// cancellation, closing, a move. The list reads them alone, and whole rows only for the cards
/// not kept: 6 columns of each meetup instead of 39.
public struct MeetupStamp: Sendable, Equatable, SQLColumns {
    public let id: Int64
    public let startsAt: Date
    public let deadline: Date
    public let closedAt: Date?
    public let acceptedCount: Int
    public let updatedAt: Date

    public init(_ meetup: Meetup) {
        (id, startsAt, deadline, closedAt, acceptedCount, updatedAt) =
            (meetup.id ?? 0, meetup.startsAt, meetup.deadline, meetup.closedAt, meetup.acceptedCount, meetup.updatedAt)
    }

    /// The columns `init(row:)` reads, in its order (the list selects `selection`).
    enum Columns: Int, SQLColumn {
        case id, startsAt, deadline, closedAt, acceptedCount, updatedAt
    }

    static let selection = SQLSelection(Columns.self, table: "meetups")

    init(row: some PositionalRow) throws {
        let column = try row.columns(of: Self.self)
        (id, startsAt, deadline) = (try column(.id), try column(.startsAt), try column(.deadline))
        (closedAt, acceptedCount, updatedAt) = (try column(.closedAt), try column(.acceptedCount), try column(.updatedAt))
    }

    /// As `Meetup.isClosed(at:)`.
    public func isClosed(at now: Date) -> Bool { closedAt != nil || now >= deadline || now >= startsAt }
}

extension MeetupStore {
    /// Upcoming meetups (soonest first) matching `filter` that `viewerID` may see: crew-only
    /// meetups show to their crew's members.
    public func meetups(_ filter: MeetupFilter, viewerID: Int64?, after cursor: MeetupCursor?, limit: Int = 20, now: Date = Date())
        throws -> (meetups: [Meetup], next: MeetupCursor?)
    {
        try listPage(Meetup.selection.bare, filter, viewerID: viewerID, after: cursor, limit: limit, now: now,
                     row: { try Meetup(row: $0, startingAt: 0) }, position: { MeetupCursor(startsAt: $0.startsAt, id: $0.id ?? 0) })
    }

    /// The stamps of the meetups `meetups(_:viewerID:after:limit:now:)` lists.
    public func meetupStamps(_ filter: MeetupFilter, viewerID: Int64?, after cursor: MeetupCursor?, limit: Int = 20, now: Date = Date())
        throws -> (stamps: [MeetupStamp], next: MeetupCursor?)
    {
        try listPage(MeetupStamp.selection.bare, filter, viewerID: viewerID, after: cursor, limit: limit,
                     now: now, row: MeetupStamp.init(row:), position: { MeetupCursor(startsAt: $0.startsAt, id: $0.id) })
    }

    /// Meetups by id, in any order; ids of meetups gone are left out.
    public func meetups(ids: [Int64]) throws -> [Meetup] {
        guard !ids.isEmpty else { return [] }
        return try database.readRows { db in
            try db.fetchAll("SELECT \(Meetup.selection.bare) FROM meetups WHERE id IN (\(db.idList("?")))", [SQLConnection.jsonArray(ids)]) {
                try Meetup(row: $0, startingAt: 0)
            }
        }
    }

    /// A page of the list: `columns` of the meetups matching, soonest first, and the cursor
    /// after the last when there are more.
    private func listPage<Row>(_ columns: String, _ filter: MeetupFilter, viewerID: Int64?, after cursor: MeetupCursor?, limit: Int, now: Date,
                               row: (SQLRow) throws -> Row, position: (Row) -> MeetupCursor) throws -> ([Row], MeetupCursor?) {
        let (conditions, arguments) = database.meetupConditions(filter, viewerID: viewerID, after: cursor, now: now)
        // A handful of filter combinations, each prepared once.
        let found = try database.readRows { connection in
            try connection.fetchAll("SELECT \(columns) FROM meetups WHERE \(conditions) ORDER BY startsAt, id LIMIT ?", arguments + [limit + 1], row)
        }
        let shown = Array(found.prefix(limit))
        return (shown, found.count > limit ? shown.last.map(position) : nil)
    }

    /// The upcoming and recent meetups `userID` is going to (accepted) or hosts.
    public func meetupsGoing(userID: Int64, since: Date) throws -> [Meetup] {
        try database.read { db in
            try db.records(Meetup.self, """
                SELECT \(Meetup.selection.bare) FROM meetups WHERE startsAt >= ?1 AND (hostID = ?2 OR id IN
                    (SELECT meetupID FROM meetupApplications WHERE userID = ?2 AND status = 'accepted'))
                ORDER BY startsAt
                """, [since, userID])
        }
    }

    /// A crew's meetups that start in `from..<to`, past, cancelled and all, soonest first; those
    /// for its members only when `membersToo`. For its calendar.
    public func crewMeetups(crewID: Int64, from: Date, to: Date, membersToo: Bool) throws -> [Meetup] {
        try database.read { db in
            try db.records(Meetup.self, """
                SELECT \(Meetup.selection.bare) FROM meetups
                WHERE crewID = ? AND startsAt >= ? AND startsAt < ? AND hiddenAt IS NULL AND (crewOnly = FALSE OR ?)
                ORDER BY startsAt, id LIMIT 500
                """, [crewID, from, to, membersToo])
        }
    }

    /// Renews the member's private calendar address: the old one answers nothing from now on.
    public func renewCalendarToken(userID: Int64) throws {
        try database.write { db in
            try db.execute("UPDATE users SET calendarToken = NULL WHERE id = ?", [userID])
            db.changed(.member(userID: userID))
        }
    }

    public func calendarToken(userID: Int64, make: () -> String) throws -> String {
        // Read first: the meetup list asks on every visit, and a write would cost a transaction.
        if let token = try database.readRows({ db in try db.value("SELECT calendarToken FROM users WHERE id = ?", [userID], as: String.self) }) {
            return token
        }
        return try database.write { db in
            if let token = try db.value("SELECT calendarToken FROM users WHERE id = ?", [userID], as: String.self) { return token }
            let token = make()
            try db.execute("UPDATE users SET calendarToken = ? WHERE id = ?", [token, userID])
            return token
        }
    }

    public func user(calendarToken: String) throws -> User? {
        try database.read { db in try db.record(User.self, "SELECT \(User.selection.bare) FROM users WHERE calendarToken = ?", [calendarToken]) }
    }

    // MARK: - Talk and bookmarks

    /// Adds to a meetup's talk (its room): the host and accepted participants only.
    public func addTalk(meetupID: Int64, authorID: Int64, body: String, bodyHTML: String, now: Date = Date()) throws {
        try database.write { db in
            guard try database.canTalk(db, meetupID: meetupID, userID: authorID),
                  let roomID = try db.value("SELECT id FROM rooms WHERE meetupID = ?", [meetupID], as: Int64.self) else { throw StorageError.forbidden }
            _ = try database.talk.send(db, Message(roomID: roomID, authorID: authorID, body: body, bodyHTML: bodyHTML, createdAt: now), now: now)
        }
    }

    /// The talk, oldest first, for the host and accepted participants (403 for others),
    /// without the messages of anyone the viewer blocks or is blocked by, nor deleted ones.
    public func talk(meetupID: Int64, viewerID: Int64) throws -> [(author: User, bodyHTML: String, createdAt: Date)] {
        try database.read { db in
            guard try database.canTalk(db, meetupID: meetupID, userID: viewerID) else { throw StorageError.forbidden }
            return try db.fetchAll("""
                SELECT \(User.selection.qualified), m.bodyHTML AS talkHTML, m.createdAt AS talkAt
                FROM messages m JOIN rooms ON rooms.id = m.roomID JOIN users ON users.id = m.authorID
                WHERE rooms.meetupID = ?1 AND m.deletedAt IS NULL AND \(AppDatabase.unblocked(viewer: "?2", "m.authorID")) ORDER BY m.id
                """, [meetupID, viewerID]) { row in
                (try User(row: row, startingAt: 0), try row.decode("talkHTML"), try row.decode("talkAt"))
            }
        }
    }

    public func talkCount(meetupID: Int64) throws -> Int {
        try database.readRows { db in
            try db.value("""
                SELECT count(*) FROM messages JOIN rooms ON rooms.id = messages.roomID WHERE rooms.meetupID = ? AND messages.deletedAt IS NULL
                """, [meetupID], as: Int.self) ?? 0
        }
    }

    public func canTalk(meetupID: Int64, userID: Int64) throws -> Bool {
        try database.readRows { db in try database.canTalk(db, meetupID: meetupID, userID: userID) }
    }

    public func setMeetupBookmark(meetupID: Int64, userID: Int64, on: Bool, now: Date = Date()) throws {
        try database.write { db in
            if on {
                guard try db.exists(Meetup.self, id: meetupID) else { throw StorageError.notFound }
                try db.execute("INSERT INTO meetupBookmarks (userID, meetupID, createdAt) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", [userID, meetupID, now])
            } else {
                try db.execute("DELETE FROM meetupBookmarks WHERE userID = ? AND meetupID = ?", [userID, meetupID])
            }
        }
    }

    public func bookmarkedMeetups(userID: Int64) throws -> [Meetup] {
        try database.read { db in
            try db.records(Meetup.self, """
                SELECT \(Meetup.selection.qualified) FROM meetupBookmarks b JOIN meetups ON meetups.id = b.meetupID WHERE b.userID = ? ORDER BY b.id DESC LIMIT 100
                """, [userID])
        }
    }

    public func isMeetupBookmarked(meetupID: Int64, userID: Int64) throws -> Bool {
        try database.readRows { db in
            try db.value("SELECT EXISTS (SELECT 1 FROM meetupBookmarks WHERE userID = ? AND meetupID = ?)", [userID, meetupID], as: Bool.self) ?? false
        }
    }
}

extension AppDatabase {
    /// The WHERE clause (and its arguments) of the meetups matching `filter` that `viewerID`
    /// may see, after `cursor`.
    func meetupConditions(_ filter: MeetupFilter, viewerID: Int64?, after cursor: MeetupCursor?, now: Date) -> (String, [any SQLBindable]) {
        var conditions = ["startsAt >= ?", "hiddenAt IS NULL", "cancelledAt IS NULL"]
        var arguments: [any SQLBindable] = [filter.from.map { max($0, now) } ?? now]
        func add(_ condition: String, _ values: any SQLBindable...) {
            conditions.append(condition)
            arguments += values
        }
        if let to = filter.to { add("startsAt < ?", to) }
        if let slot = filter.timeSlot { add("timeSlot = ?", slot.rawValue) }
        if let region = filter.region { add("region = ?", region) }
        if let min = filter.minDistance { add("distanceKm >= ?", min) }
        if let max = filter.maxDistance { add("distanceKm <= ?", max) }
        if let sport = filter.sport { add("sport = ?", sport.rawValue) }
        // A pace is a run's: other sports' meetups state none.
        if let pace = filter.pace { add("pace = ? AND sport IN ('running', 'trail')", pace.rawValue) }
        if let rule = filter.genderRule { add("genderRule = ?", rule.rawValue) }
        if let age = filter.age { add("(minAge IS NULL OR minAge <= ?) AND (maxAge IS NULL OR maxAge >= ?)", age, age) }
        if let job = filter.job { add("(jobs = '' OR ',' || jobs || ',' LIKE ?)", "%," + job + ",%") }
        if filter.openOnly { add("closedAt IS NULL AND deadline > ? AND acceptedCount < capacity", now) }
        if filter.workplaceOnly { add("workplaceOnly") }
        if let crewID = filter.crewID { add("crewID = ?", crewID) }
        if let area = filter.area {
            add("latitude IS NOT NULL AND latitude BETWEEN ? AND ? AND longitude BETWEEN ? AND ?",
                area.latitudes.lowerBound, area.latitudes.upperBound, area.longitudes.lowerBound, area.longitudes.upperBound)
        }
        if let keyword = filter.keyword.map(SearchText.init), !keyword.isEmpty {
            let pattern = keyword.containsPattern, like = SQLConnection.like(keyword, engine: engine)
            add("(title \(like) ? ESCAPE '\\' OR description \(like) ? ESCAPE '\\' OR placeName \(like) ? ESCAPE '\\')", pattern, pattern, pattern)
        }
        if let named = filter.named.map(SearchText.init), !named.isEmpty {
            let range = named.keyRange
            add("id IN (\(Self.namedIDs(kind: "meetup", from: "?", to: "?", reading: SearchText.meetupKeysRead)))", range.lower, range.upper)
        }
        if let cursor { add("(startsAt > ? OR (startsAt = ? AND id > ?))", cursor.startsAt, cursor.startsAt, cursor.id) }
        add("(crewOnly = FALSE OR crewID IN (SELECT crewID FROM crewMembers WHERE userID = ? AND role != 'pending'))", viewerID ?? -1)
        return (conditions.joined(separator: " AND "), arguments)
    }

    func canTalk(_ db: SQLConnection, meetupID: Int64, userID: Int64) throws -> Bool {
        try db.value("""
            SELECT EXISTS (SELECT 1 FROM meetups WHERE id = ?1 AND hostID = ?2)
                OR EXISTS (SELECT 1 FROM meetupApplications WHERE meetupID = ?1 AND userID = ?2 AND status = 'accepted')
            """, [meetupID, userID], as: Bool.self) ?? false
    }
}
