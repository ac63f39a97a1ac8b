import Foundation

/// A member's download of their data: asked for, then made in the background, then kept for
/// `DataExport.lifetime`.
public struct DataExport: Sendable, Equatable {
    public var requestedAt: Date
    public var readyAt: Date?
    public var fileName: String?
    public var byteCount: Int?

    public static let lifetime: TimeInterval = 7 * 86_400
    /// An export not ready by then was lost with its server: another may be asked for.
    public static let makingLimit: TimeInterval = 3_600

    public func isBeingMade(at now: Date) -> Bool { readyAt == nil && now.timeIntervalSince(requestedAt) < Self.makingLimit }
}

/// One table of what Moim holds about a member, as the export writes it.
public struct ExportedTable: Sendable {
    public var name: String
    public var rows: [[(column: String, value: ExportedValue)]]
}

public enum ExportedValue: Sendable, Equatable {
    case null, text(String), number(Int64), date(Date), bool(Bool)
}

extension AccountStore {
    public func dataExport(userID: Int64) throws -> DataExport? {
        try database.readRows { db in
            try db.fetchAll("SELECT requestedAt, readyAt, fileName, byteCount FROM dataExports WHERE userID = ?", [userID]) { row in
                DataExport(requestedAt: try row.decode("requestedAt"), readyAt: try row.decode("readyAt"),
                           fileName: try row.decode("fileName"), byteCount: try row.decode("byteCount"))
            }.first
        }
    }

    /// Starts a new export unless one is being made; returns the previous file (to remove)
    /// through `replaced`. False when one is under way.
    public func requestDataExport(userID: Int64, now: Date = Date(), replaced: inout String?) throws -> Bool {
        let (started, old) = try database.write { db -> (Bool, String?) in
            let current = try db.fetchAll("SELECT requestedAt, readyAt, fileName FROM dataExports WHERE userID = ?", [userID]) { row in
                DataExport(requestedAt: try row.decode("requestedAt"), readyAt: try row.decode("readyAt"), fileName: try row.decode("fileName"), byteCount: nil)
            }.first
            if let current, current.isBeingMade(at: now) { return (false, nil) }
            try db.execute("DELETE FROM dataExports WHERE userID = ?", [userID])
            try db.execute("INSERT INTO dataExports (userID, requestedAt) VALUES (?, ?)", [userID, now])
            return (true, current?.fileName)
        }
        replaced = old
        return started
    }

    /// Marks the export asked for at `requestedAt` ready; false (and the file is the caller's
    /// to remove) if it was replaced or its member is gone meanwhile.
    public func finishDataExport(userID: Int64, requestedAt: Date, fileName: String, byteCount: Int, now: Date = Date()) throws -> Bool {
        try database.write { db in
            try db.execute("UPDATE dataExports SET readyAt = ?, fileName = ?, byteCount = ? WHERE userID = ? AND requestedAt = ? AND readyAt IS NULL",
                           [now, fileName, byteCount, userID, requestedAt]) == 1
        }
    }

    /// Forgets exports past their lifetime (and ones never finished); returns their files.
    public func pruneDataExports(now: Date = Date()) throws -> [String] {
        try database.write { db in
            let cutoff = now.addingTimeInterval(-DataExport.lifetime)
            let files = try db.values("SELECT fileName FROM dataExports WHERE readyAt < ? AND fileName IS NOT NULL", [cutoff], as: String.self)
            try db.execute("DELETE FROM dataExports WHERE readyAt < ? OR (readyAt IS NULL AND requestedAt < ?)",
                           [cutoff, now.addingTimeInterval(-DataExport.makingLimit)])
            return files
        }
    }

    /// Everything the member's export holds besides their runs and photos, table by table.
    public func exportedTables(userID: Int64) throws -> [ExportedTable] {
        let queries: [(String, String)] = [
            ("profile", """
                SELECT username, email, displayName, bio, gender, birthYear, job, region, language, units, createdAt,
                       workplaceDomain, workplaceVerifiedAt, marketingSince FROM users WHERE id = ?
                """),
            ("agreements", "SELECT kind, version, agreedAt FROM agreements WHERE userID = ? ORDER BY agreedAt, kind"),
            ("posts", "SELECT id, body, createdAt FROM posts WHERE authorID = ? ORDER BY id"),
            ("photos", "SELECT postID, position, fileName FROM photos WHERE postID IN (SELECT id FROM posts WHERE authorID = ?) ORDER BY postID, position"),
            ("comments", "SELECT postID, body, createdAt FROM comments WHERE authorID = ? ORDER BY id"),
            ("guestbook", """
                SELECT crews.name AS crew, crewComments.body, crewComments.createdAt FROM crewComments JOIN crews ON crews.id = crewComments.crewID
                WHERE crewComments.authorID = ? ORDER BY crewComments.id
                """),
            ("messages", """
                SELECT coalesce(rooms.name, crews.name, meetups.title, '') AS room, messages.body, messages.createdAt, messages.editedAt
                FROM messages JOIN rooms ON rooms.id = messages.roomID LEFT JOIN crews ON crews.id = rooms.crewID
                LEFT JOIN meetups ON meetups.id = rooms.meetupID
                WHERE messages.authorID = ? AND messages.deletedAt IS NULL ORDER BY messages.id
                """),
            ("following", "SELECT users.username, follows.createdAt FROM follows JOIN users ON users.id = follows.followeeID WHERE follows.followerID = ? ORDER BY follows.createdAt"),
            ("followers", "SELECT users.username, follows.createdAt FROM follows JOIN users ON users.id = follows.followerID WHERE follows.followeeID = ? ORDER BY follows.createdAt"),
            ("blocked", "SELECT users.username, blocks.createdAt FROM blocks JOIN users ON users.id = blocks.blockedID WHERE blocks.blockerID = ? ORDER BY blocks.createdAt"),
            ("crews", """
                SELECT crews.name, crews.slug, crewMembers.role, crewMembers.joinedAt FROM crewMembers JOIN crews ON crews.id = crewMembers.crewID
                WHERE crewMembers.userID = ? ORDER BY crewMembers.joinedAt
                """),
            ("meetupsHosted", "SELECT id, title, startsAt, placeName FROM meetups WHERE hostID = ? ORDER BY startsAt"),
            ("meetupsJoined", """
                SELECT meetups.id, meetups.title, meetups.startsAt, meetups.placeName, meetupApplications.status, meetupApplications.attended
                FROM meetupApplications JOIN meetups ON meetups.id = meetupApplications.meetupID
                WHERE meetupApplications.userID = ? ORDER BY meetups.startsAt
                """),
            ("payments", """
                SELECT payments.publicID, crews.name AS crew, payments.purpose, payments.provider, payments.amount, payments.currency, payments.state,
                       payments.receivedAmount, payments.refundedAmount, payments.createdAt, payments.settledAt
                FROM payments JOIN crews ON crews.id = payments.crewID WHERE payments.userID = ? ORDER BY payments.createdAt
                """),
        ]
        // PostgreSQL names result columns in lower case: the export names them as written here.
        let spellings = Dictionary(queries.flatMap { $0.1.split { !$0.isLetter && !$0.isNumber }.map(String.init) }.map { ($0.lowercased(), $0) },
                                   uniquingKeysWith: { first, _ in first })
        return try database.readRows { db in
            try queries.map { name, sql in
                ExportedTable(name: name, rows: try db.fetchAll(sql, [userID]) { row in try Self.exported(row, spellings: spellings) })
            }
        }
    }

    /// A row's columns as the export writes them: dates as dates on either engine (columns
    /// named `…At`), flags as flags.
    private static func exported(_ row: SQLRow, spellings: [String: String]) throws -> [(column: String, value: ExportedValue)] {
        try (0..<row.count).map { index in
            let name = spellings[row.columnName(atIndex: index).lowercased()] ?? row.columnName(atIndex: index)
            if row.isNull(atIndex: index) { return (name, .null) }
            if name.hasSuffix("At") { return (name, .date(try row.date(atIndex: index))) }
            if name == "attended" { return (name, .bool(try row.bool(atIndex: index))) }
            switch try row.value(atIndex: index) {
            case .integer(let number): return (name, .number(number))
            case .bool(let flag): return (name, .bool(flag))
            case .real(let number): return (name, .text(String(number)))
            case .date(let date): return (name, .date(date))
            case .text(let text): return (name, .text(text))
            case .blob, .null: return (name, .null)
            }
        }
    }

    /// The member's runs, for the export (tracks included).
    public func exportedRuns(userID: Int64) throws -> [RunRecord] {
        try database.readRows { db in
            try db.records(RunRecord.self, "SELECT \(RunRecord.selection.bare) FROM records WHERE userID = ? ORDER BY startedAt", [userID])
        }
    }
}
