import Foundation
import Testing
import TestSupport
@testable import Storage

/// A stored type declares its columns once (`Columns`), and its select list, its reads and its
/// writes all come from that declaration: a column added anywhere in it moves all three alike,
/// in every build. Columns a query names itself are read by their names.
struct ColumnReadsTests {
    private let now = Date(timeIntervalSince1970: 1_780_000_000.125)

    @Test func aColumnAddedInTheMiddleOfATypesListIsReadAndWrittenInItsPlace() throws {
        // Given sessions with a column added by a migration (at the end of the table), and a
        // type that declares it in the middle of its list
        let database = try TestDatabase.fresh()
        let (mina, jun) = try { let ids = try database.members("mina", "jun"); return (ids[0], ids[1]) }()
        try database.write { db in try db.execute("ALTER TABLE sessions ADD COLUMN device TEXT NOT NULL DEFAULT ''") }
        let wider = WiderSession(id: nil, tokenHash: Data(repeating: 7, count: 32), userID: jun, device: "phone",
                                 csrfToken: "token", createdAt: now, lastSeenAt: now.addingTimeInterval(60))

        // When it is written and read back, alone and joined to its member
        let id = try database.write { db in try db.insert(wider) }
        let read = try database.read { db in try db.record(WiderSession.self, id: id) }
        let joined = try database.read { db in
            try db.fetchOne("""
                SELECT \(WiderSession.selection.qualified), \(User.selection.qualified) FROM sessions JOIN users ON users.id = sessions.userID
                WHERE sessions.id = ?
                """, [id]) { row in (try WiderSession(row: row, startingAt: 0), try User(row: row, startingAt: WiderSession.selection.count)) }
        }
        let session = try database.read { db in try db.record(Session.self, id: id) }

        // Then every column holds its own value, and the types that do not declare it still read right
        #expect(read == WiderSession(id: id, tokenHash: wider.tokenHash, userID: jun, device: "phone", csrfToken: "token",
                                     createdAt: now, lastSeenAt: now.addingTimeInterval(60)))
        #expect(joined?.0 == read)
        #expect(joined?.1.username == "jun")
        #expect(session?.userID == jun && session?.csrfToken == "token" && session?.lastSeenAt == now.addingTimeInterval(60))
        #expect(mina != jun)
    }

    @Test func everyStoredTypesColumnsAreItsTablesAndNumberedInTheirOrder() throws {
        // Given an empty database of the current schema
        let database = try TestDatabase.fresh()
        // Then each type's declared columns exist in its table, and their positions are their order
        try declares(User.self, "users", database)
        try declares(Session.self, "sessions", database)
        try declares(Crew.self, "crews", database)
        try declares(CrewComment.self, "crewComments", database)
        try declares(LedgerEntry.self, "crewLedger", database)
        try declares(DuesPeriod.self, "duesPeriods", database)
        try declares(Payment.self, "payments", database)
        try declares(Post.self, "posts", database)
        try declares(Photo.self, "photos", database)
        try declares(Author.self, "users", database)
        try declares(Comment.self, "comments", database)
        try declares(Notification.self, "notifications", database)
        try declares(Meetup.self, "meetups", database)
        try declares(MeetupStamp.self, "meetups", database)
        try declares(PaceGroup.self, "meetupGroups", database)
        try declares(RunRecord.self, "records", database)
        try declares(Retro.self, "retros", database)
        try declares(Feedback.self, "retroFeedback", database)
        try declares(Room.self, "rooms", database)
        try declares(RoomMembership.self, "roomMembers", database)
        try declares(Message.self, "messages", database)
        try declares(CrewNotice.self, "crewNotices", database)
        try declares(LogEntry.self, "moderationLog", database)
        try declares(MailSettings.self, "mailSettings", database)
        try declares(OutboxMail.self, "outbox", database)
    }

    @Test func aColumnAQueryNamesIsFoundByItsNameWhereverItIs() throws {
        // Given a row whose columns the query named, in an order of its own
        let database = try TestDatabase.fresh()
        let read = try database.read { db in
            try db.fetchOne("SELECT 'two' AS second, 1 AS first, NULL AS third") { row in
                (try row.decode("first", as: Int.self), try row.decode("Second", as: String.self), try row.decode("third", as: Int?.self))
            }
        }
        // Then each is read by its name, ignoring case as both engines do
        #expect(read?.0 == 1 && read?.1 == "two" && read?.2 == nil)
        // And a name the query lacks is an error for the page, not a wrong column
        #expect(throws: SQLDecodingError.self) {
            try database.read { db in try db.fetchOne("SELECT 1 AS first") { try $0.decode("second", as: Int.self) } }
        }
    }

    private func declares<Type: SQLColumns>(_ type: Type.Type, _ table: String, _ database: AppDatabase) throws {
        let cases = Type.Columns.allCases.map { $0 }
        #expect(cases.map(\.rawValue) == Array(0..<cases.count), "\(Type.self) numbers its columns in their order")
        #expect(Type.columns == cases.map(\.name))
        // A column the table lacks fails the statement.
        #expect(throws: Never.self, "\(Type.self)") {
            try database.read { db in try db.execute("SELECT \(Type.selection.bare) FROM \(table) LIMIT 0") }
        }
    }
}

/// `Session` as a later version might declare it: `device` added between `userID` and `csrfToken`.
private struct WiderSession: SQLRecord, Equatable {
    static let databaseTableName = "sessions"

    enum Columns: Int, SQLColumn {
        case id, tokenHash, userID, device, csrfToken, createdAt, lastSeenAt
    }

    static let selection = SQLSelection(Columns.self, table: "sessions")

    var id: Int64?
    var tokenHash: Data
    var userID: Int64
    var device: String
    var csrfToken: String
    var createdAt: Date
    var lastSeenAt: Date

    init(id: Int64?, tokenHash: Data, userID: Int64, device: String, csrfToken: String, createdAt: Date, lastSeenAt: Date) {
        (self.id, self.tokenHash, self.userID, self.device) = (id, tokenHash, userID, device)
        (self.csrfToken, self.createdAt, self.lastSeenAt) = (csrfToken, createdAt, lastSeenAt)
    }

    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        tokenHash = try column(.tokenHash)
        userID = try column(.userID)
        device = try column(.device)
        csrfToken = try column(.csrfToken)
        createdAt = try column(.createdAt)
        lastSeenAt = try column(.lastSeenAt)
    }

    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .tokenHash: tokenHash
        case .userID: userID
        case .device: device
        case .csrfToken: csrfToken
        case .createdAt: createdAt
        case .lastSeenAt: lastSeenAt
        }
    }
}
