import Foundation
import GRDB

/// One run: when, how far, how long, and optionally its GPS track.
public struct RunRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord, StoredRecord {
    public enum Visibility: String, Codable, Sendable, CaseIterable {
        /// Anyone.
        case `public`
        /// People who share a crew with the runner.
        case crew
        /// Only the runner.
        case `private`
    }

    public var id: Int64?
    public var userID: Int64
    public var startedAt: Date
    public var distanceMeters: Int
    public var durationSeconds: Int
    public var elevationGain: Int
    public var note: String
    public var noteHTML: String
    public var visibility: Visibility
    public var meetupID: Int64?
    public var track: Data?
    /// Elapsed seconds at each whole kilometre, "301,598,…"; nil without GPX times.
    public var splits: String?
    public var createdAt: Date

    public static let databaseTableName = "records"

    public init(userID: Int64, startedAt: Date, distanceMeters: Int, durationSeconds: Int, elevationGain: Int, note: String,
                noteHTML: String, visibility: Visibility, meetupID: Int64?, track: Data?, splits: String? = nil, createdAt: Date = Date()) {
        self.userID = userID
        self.startedAt = startedAt
        self.distanceMeters = distanceMeters
        self.durationSeconds = durationSeconds
        self.elevationGain = elevationGain
        self.note = note
        self.noteHTML = noteHTML
        self.visibility = visibility
        self.meetupID = meetupID
        self.track = track
        self.splits = splits
        self.createdAt = createdAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension AppDatabase {
    public func createRecord(_ record: RunRecord) throws -> RunRecord {
        try writer.write { db in
            var record = record
            if let meetupID = record.meetupID {
                let attended = try Bool.fetchOne(db.cachedStatement(sql: """
                    SELECT EXISTS (SELECT 1 FROM meetupApplications WHERE meetupID = ? AND userID = ? AND status = 'accepted')
                        OR EXISTS (SELECT 1 FROM meetups WHERE id = ? AND hostID = ?)
                    """), arguments: [meetupID, record.userID, meetupID, record.userID]) ?? false
                guard attended else { throw StorageError.forbidden }
            }
            try record.insert(db)
            return record
        }
    }

    public func deleteRecord(id: Int64, userID: Int64) throws {
        try writer.write { db in
            guard try RunRecord.filter(Column("id") == id && Column("userID") == userID).deleteAll(db) == 1 else { throw StorageError.notFound }
        }
    }

    /// The record if `viewerID` may see it: its runner always; crew visibility for people who
    /// share a crew with the runner; public for everyone.
    public func record(id: Int64, viewerID: Int64?) throws -> RunRecord? {
        try reader.read { db in
            guard let record = try RunRecord.fetchOne(db, key: id), try canSee(db, record.userID, record.visibility, viewerID) else { return nil }
            return record
        }
    }

    /// A runner's records between two instants that `viewerID` may see, oldest first.
    public func records(userID: Int64, from: Date, to: Date, viewerID: Int64?) throws -> [RunRecord] {
        try reader.read { db in
            let levels = try visibleLevels(db, ownerID: userID, viewerID: viewerID)
            return try RunRecord.fetchAll(db.cachedStatement(sql: """
                SELECT * FROM records WHERE userID = ? AND startedAt >= ? AND startedAt < ? AND visibility IN (\(databaseQuestionMarks(count: levels.count)))
                ORDER BY startedAt
                """), arguments: StatementArguments([userID, from, to] + levels.map { $0 as any DatabaseValueConvertible }))
        }
    }

    /// Meetups the user went to (or hosted) that started in the last 30 days, to link a run to.
    public func recentMeetupsAttended(userID: Int64, now: Date = Date()) throws -> [Meetup] {
        try reader.read { db in
            try Meetup.fetchAll(db.cachedStatement(sql: """
                SELECT * FROM meetups WHERE startsAt BETWEEN ? AND ? AND (hostID = ?3 OR id IN
                    (SELECT meetupID FROM meetupApplications WHERE userID = ?3 AND status = 'accepted'))
                ORDER BY startsAt DESC
                """), arguments: [now.addingTimeInterval(-30 * 86_400), now, userID])
        }
    }

    /// This month's distance per opted-in member of a crew, longest first.
    public func leaderboard(crewID: Int64, from: Date, to: Date) throws -> [(user: User, meters: Int, runs: Int)] {
        try reader.read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT users.*, sum(records.distanceMeters) AS meters, count(records.id) AS runs
                FROM crewMembers JOIN users ON users.id = crewMembers.userID
                JOIN records ON records.userID = users.id AND records.startedAt >= ? AND records.startedAt < ? AND records.visibility != 'private'
                WHERE crewMembers.crewID = ? AND crewMembers.role != 'pending' AND users.onLeaderboard = 1
                GROUP BY users.id ORDER BY meters DESC LIMIT 50
                """), arguments: [from, to, crewID])
            .map { (try User(row: $0), $0["meters"], $0["runs"]) }
        }
    }

    public func setRunPreferences(userID: Int64, units: String, onLeaderboard: Bool) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE users SET units = ?, onLeaderboard = ? WHERE id = ?", arguments: [units, onLeaderboard, userID])
        }
    }

    private func canSee(_ db: Database, _ ownerID: Int64, _ visibility: RunRecord.Visibility, _ viewerID: Int64?) throws -> Bool {
        try visibleLevels(db, ownerID: ownerID, viewerID: viewerID).contains(visibility.rawValue)
    }

    private func visibleLevels(_ db: Database, ownerID: Int64, viewerID: Int64?) throws -> [String] {
        guard let viewerID else { return ["public"] }
        if viewerID == ownerID { return ["public", "crew", "private"] }
        let shareCrew = try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM crewMembers a JOIN crewMembers b ON a.crewID = b.crewID
                           WHERE a.userID = ? AND b.userID = ? AND a.role != 'pending' AND b.role != 'pending')
            """), arguments: [ownerID, viewerID]) ?? false
        return shareCrew ? ["public", "crew"] : ["public"]
    }
}
