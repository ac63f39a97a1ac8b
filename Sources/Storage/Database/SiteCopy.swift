import Foundation

/// One table moved by `copy(to:)`: its rows and the checksum both databases agreed on.
public struct CopiedTable: Sendable {
    public let name: String
    public let rows: Int
    public let checksum: UInt64
}

/// Why a site could not be copied; nothing was written to the target.
public enum CopyError: Error, CustomStringConvertible {
    case wrongEngines
    case notEmpty(table: String)
    case differentSchema(source: [String], target: [String])
    case unknownTables([String])
    case mismatch(table: String)

    public var description: String {
        switch self {
        case .wrongEngines: "the copy goes from a SQLite site to a PostgreSQL database"
        case .notEmpty(let table): "the target database is not empty (table \(table) has rows): copy into a new, empty database"
        case .differentSchema(let source, let target):
            "the two schemas differ (SQLite at \(source.last ?? "none"), PostgreSQL at \(target.last ?? "none")): run the same moim on both"
        case .unknownTables(let tables): "tables this moim does not know how to copy: \(tables.joined(separator: ", "))"
        case .mismatch(let table): "table \(table) differs after the copy; nothing was kept"
        }
    }
}

extension AppDatabase {
    /// Every table, parents before the tables that refer to them.
    static let tablesInOrder = [
        "users", "sessions", "crews", "posts", "photos", "postTags", "likes", "bookmarks", "follows", "comments", "crewMembers",
        "duesPeriods", "payments", "crewLedger", "crewComments", "meetups", "meetupGroups", "meetupApplications", "meetupBookmarks",
        "rooms", "roomMembers", "messages", "messagePhotos", "talkSettings", "crewNotices", "noticeReads", "checkinAttempts", "notifications", "reports", "moderationLog", "warnings", "blocks", "records", "retros", "retroFeedback",
        "mailSettings", "emailTokens", "outbox", "mailCursors", "timeline", "rateEvents", "identities", "signInAttempts", "pendingIdentities",
        "workplaceCodes", "siteKeys", "pushSubscriptions", "pushPreferences", "pushQueue", "postGrams", "nameKeys", "tagCounts", "twoFactor",
        "recoveryCodes", "documents", "agreements", "dataExports",
        "passkeys", "passkeyChallenges",
    ]

    /// Tables the migrations themselves fill (mail's cursors, the first version of each
    /// document): emptied in the target, the source's rows take their place.
    fileprivate static let tablesMigrationsFill = ["mailCursors", "documents"]

    /// Tables whose triggers keep other tables or columns (timelines, mail settings,
    /// revisions, search keys): quiet during the copy, since what they keep is copied as it is.
    fileprivate static let tablesWithTriggers = ["users", "posts", "comments", "photos", "follows", "crewMembers", "postTags", "crews", "meetups",
                                                 "meetupApplications"]

    /// Copies this SQLite site into `target`, an empty PostgreSQL database, in one
    /// transaction: every row of every table, ids kept and identities continued after them,
    /// then each table's row count and checksum compared on both sides. Refused into a
    /// database that holds anything; on any difference nothing is kept.
    public func copy(to target: AppDatabase, progress: (String, Int) -> Void = { _, _ in }) throws -> [CopiedTable] {
        guard engine == .sqlite, target.engine == .postgres else { throw CopyError.wrongEngines }
        let (source, destination) = (try appliedMigrations(), try target.appliedMigrations())
        guard source == destination else { throw CopyError.differentSchema(source: source, target: destination) }
        let present = try readRows { db in
            try db.values("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' AND name NOT LIKE '%Search_%'", as: String.self)
        }
        let unknown = Set(present).subtracting(Self.tablesInOrder)
        guard unknown.isEmpty else { throw CopyError.unknownTables(unknown.sorted()) }
        return try target.write { postgres in
            for table in Self.tablesInOrder where !Self.tablesMigrationsFill.contains(table) {
                if try postgres.value("SELECT EXISTS (SELECT 1 FROM \(table))") == true { throw CopyError.notEmpty(table: table) }
            }
            for table in Self.tablesMigrationsFill { try postgres.execute("DELETE FROM \(table)") }
            for table in Self.tablesWithTriggers { try postgres.execute("ALTER TABLE \(table) DISABLE TRIGGER USER") }
            var copied: [CopiedTable] = []
            for table in Self.tablesInOrder {
                let types = try postgres.fetchAll("""
                    SELECT lower(column_name), data_type FROM information_schema.columns
                    WHERE table_schema = current_schema() AND table_name = lower(?) ORDER BY ordinal_position
                    """, [table]) { (try $0.decode(String.self, atIndex: 0), try $0.decode(String.self, atIndex: 1)) }
                let columns = try readRows { db in try db.fetchAll("SELECT name FROM pragma_table_info(?)", [table]) { try $0.decode(String.self, atIndex: 0) } }
                guard columns.map({ $0.lowercased() }) == types.map(\.0) else { throw CopyError.differentSchema(source: source, target: destination) }
                let insert = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(SQLConnection.placeholders(columns.count)))"
                var (rows, sourceSum) = (0, TableChecksum())
                _ = try readRows { sqlite in
                    try sqlite.run("SELECT * FROM \(table)") { row in
                        let values = try (0..<columns.count).map { try row.value(atIndex: $0) }
                        try postgres.execute(insert, values)
                        sourceSum.add(zip(values, types).map { TableChecksum.normalized($0, as: $1.1) })
                        rows += 1
                    }
                }
                var (copiedRows, targetSum) = (0, TableChecksum())
                try postgres.run("SELECT * FROM \(table)") { row in
                    targetSum.add(try (0..<columns.count).map { try row.value(atIndex: $0) })
                    copiedRows += 1
                }
                guard copiedRows == rows, targetSum == sourceSum else { throw CopyError.mismatch(table: table) }
                if types.first?.0 == "id" {
                    try postgres.execute("SELECT setval(pg_get_serial_sequence('\(table.lowercased())', 'id'), (SELECT coalesce(max(id), 0) + 1 FROM \(table)), false)")
                }
                copied.append(CopiedTable(name: table, rows: rows, checksum: targetSum.value))
                progress(table, rows)
            }
            for table in Self.tablesWithTriggers { try postgres.execute("ALTER TABLE \(table) ENABLE TRIGGER USER") }
            return copied
        }
    }
}

/// A checksum of a table's rows in any order: the sum of a 64-bit FNV-1a hash per row, of
/// its values in one form whichever engine read them.
struct TableChecksum: Equatable {
    private(set) var value: UInt64 = 0

    mutating func add(_ row: [SQLValue]) {
        value &+= Self.hash(row)
    }

    /// A SQLite value as PostgreSQL's column type `type` holds it: 0 and 1 as booleans, GRDB's
    /// date text as a date, integers in floating-point columns as numbers.
    static func normalized(_ value: SQLValue, as type: String) -> SQLValue {
        switch (value, type) {
        case (.integer(let number), "boolean"): .bool(number != 0)
        case (.integer(let number), "double precision"): .real(Double(number))
        case (.text(let text), "timestamp with time zone"): StoredDate.date(text).map(SQLValue.date) ?? value
        default: value
        }
    }

    private static func hash(_ row: [SQLValue]) -> UInt64 {
        var hash: UInt64 = 14_695_981_039_346_656_037
        func mix(_ bytes: some Sequence<UInt8>) {
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
        }
        for value in row {
            switch value {
            case .null: mix([0])
            case .integer(let number): mix([1]); mix(withUnsafeBytes(of: number.littleEndian, Array.init))
            case .real(let number): mix([2]); mix(withUnsafeBytes(of: number.bitPattern.littleEndian, Array.init))
            case .text(let text): mix([3]); mix(text.utf8); mix([0])
            case .blob(let data): mix([4]); mix(data); mix([0])
            case .bool(let flag): mix([5, flag ? 1 : 0])
            case .date(let date):
                // To the millisecond, as both engines keep dates.
                mix([6]); mix(withUnsafeBytes(of: (date.milliseconds(.toNearestOrAwayFromZero) ?? 0).littleEndian, Array.init))
            }
        }
        return hash
    }
}
