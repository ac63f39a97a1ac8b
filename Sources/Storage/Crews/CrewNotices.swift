import Foundation

/// A notice (공지) staff post to their crew: pinned at the top of the crew's page and room until
/// a newer one or staff unpin it; each member who reads it is counted.
public struct CrewNotice: Sendable, Equatable, StoredRecord {
    public var id: Int64?
    public var crewID: Int64
    public var authorID: Int64
    public var body: String
    public var bodyHTML: String
    public var createdAt: Date
    public var unpinnedAt: Date?

    public static let databaseTableName = "crewNotices"
}

extension CrewNotice: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    enum Columns: Int, SQLColumn {
        case id, crewID, authorID, body, bodyHTML, createdAt, unpinnedAt
    }

    static let selection = SQLSelection(Columns.self, table: "crewNotices")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        crewID = try column(.crewID)
        authorID = try column(.authorID)
        body = try column(.body)
        bodyHTML = try column(.bodyHTML)
        createdAt = try column(.createdAt)
        unpinnedAt = try column(.unpinnedAt)
    }

    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .crewID: crewID
        case .authorID: authorID
        case .body: body
        case .bodyHTML: bodyHTML
        case .createdAt: createdAt
        case .unpinnedAt: unpinnedAt
        }
    }
}

/// Who of a crew's members has read a notice, and who has not.
public struct NoticeReaders: Sendable, Equatable {
    public var read: [Author]
    public var unread: [Author]
}

extension AppDatabase {
    /// The members a crew's news (a notice, a new meetup) notifies: all but those who
    /// silenced the crew, and but the one who made it.
    func crewNewsReaders(_ db: SQLConnection, crewID: Int64, except userID: Int64) throws -> [Int64] {
        try db.values("""
            SELECT userID FROM crewMembers WHERE crewID = ? AND role != 'pending' AND userID != ? AND notifies
            """, [crewID, userID], as: Int64.self)
    }
}

extension CrewStore {
    /// Whether a crew's notices and new meetups notify the member.
    public func notifies(crewID: Int64, userID: Int64) throws -> Bool {
        try database.readRows { db in
            try db.value("SELECT notifies FROM crewMembers WHERE crewID = ? AND userID = ?", [crewID, userID], as: Bool.self) ?? true
        }
    }

    /// Silences a crew's notices and new meetups for a member, or lets them notify again.
    public func setNotifies(_ on: Bool, crewID: Int64, userID: Int64) throws {
        try database.write { db in
            guard try database.crewRole(db, crewID: crewID, userID: userID)?.isMember == true else { throw StorageError.notFound }
            try db.execute("UPDATE crewMembers SET notifies = ? WHERE crewID = ? AND userID = ?", [on, crewID, userID])
        }
    }

    /// Posts a notice (staff only) and tells every other member, in one transaction.
    public func postNotice(crewID: Int64, by userID: Int64, body: String, bodyHTML: String, now: Date = Date()) throws -> CrewNotice {
        try database.write { db in
            try database.requireStaff(db, crewID: crewID, userID: userID)
            var notice = CrewNotice(id: nil, crewID: crewID, authorID: userID, body: body, bodyHTML: bodyHTML, createdAt: now, unpinnedAt: nil)
            notice.id = try db.insert(notice)
            try db.execute("INSERT INTO noticeReads (noticeID, userID, readAt) VALUES (?, ?, ?)", [notice.id, userID, now])
            let detail = String(body.prefix(140))
            for member in try database.crewNewsReaders(db, crewID: crewID, except: userID) {
                try database.insertNotification(db, userID: member, kind: .crewNotice, actorID: userID, postID: nil, commentID: nil,
                                                crewID: crewID, detail: detail, now: now)
            }
            db.changed(.crew(crewID: crewID))
            return notice
        }
    }

    /// The crew's pinned notice: the newest not unpinned.
    public func pinnedNotice(crewID: Int64) throws -> (notice: CrewNotice, author: Author)? {
        try database.readRows { db in
            try db.fetchOne("""
                SELECT \(CrewNotice.selection.qualified), \(Author.selection.qualified) FROM crewNotices JOIN users ON users.id = crewNotices.authorID
                WHERE crewNotices.crewID = ? AND crewNotices.unpinnedAt IS NULL ORDER BY crewNotices.id DESC LIMIT 1
                """, [crewID]) { (try CrewNotice(row: $0, startingAt: 0), try Author(row: $0, startingAt: CrewNotice.selection.count)) }
        }
    }

    public func notice(id: Int64) throws -> CrewNotice? {
        try database.readRows { db in try db.record(CrewNotice.self, id: id) }
    }

    /// Counts the member as having read the notice (once; only a member of its crew). A page
    /// view of someone who read it already writes nothing.
    public func markNoticeRead(noticeID: Int64, userID: Int64, now: Date = Date()) throws {
        let read = try database.readRows { db in
            try db.value("SELECT EXISTS (SELECT 1 FROM noticeReads WHERE noticeID = ? AND userID = ?)", [noticeID, userID], as: Bool.self) ?? false
        }
        guard !read else { return }
        try database.write { db in
            try db.execute("""
                INSERT INTO noticeReads (noticeID, userID, readAt)
                SELECT crewNotices.id, ?, ? FROM crewNotices JOIN crewMembers ON crewMembers.crewID = crewNotices.crewID
                WHERE crewNotices.id = ? AND crewMembers.userID = ? AND crewMembers.role != 'pending'
                ON CONFLICT DO NOTHING
                """, [userID, now, noticeID, userID])
        }
    }

    /// Of the crew's members now, who has read the notice and who has not, by name.
    public func noticeReaders(noticeID: Int64) throws -> NoticeReaders {
        try database.read { db in
            let rows = try db.fetchAll("""
                SELECT \(Author.selection.qualified), EXISTS (SELECT 1 FROM noticeReads WHERE noticeID = ?1 AND noticeReads.userID = users.id) AS hasRead
                FROM crewMembers JOIN users ON users.id = crewMembers.userID
                WHERE crewMembers.crewID = (SELECT crewID FROM crewNotices WHERE id = ?1) AND crewMembers.role != 'pending'
                ORDER BY users.displayName, users.id
                """, [noticeID]) { (try Author(row: $0, startingAt: 0), try $0.decode("hasRead", as: Bool.self)) }
            return NoticeReaders(read: rows.filter(\.1).map(\.0), unread: rows.filter { !$0.1 }.map(\.0))
        }
    }

    /// Takes the notice off the top of the crew's page (staff).
    public func unpinNotice(id: Int64, by userID: Int64, now: Date = Date()) throws {
        try database.write { db in
            guard let notice = try db.record(CrewNotice.self, id: id) else { throw StorageError.notFound }
            try database.requireStaff(db, crewID: notice.crewID, userID: userID)
            try db.execute("UPDATE crewNotices SET unpinnedAt = ? WHERE id = ?", [now, id])
            db.changed(.crew(crewID: notice.crewID))
        }
    }
}
