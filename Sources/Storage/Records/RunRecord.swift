import Foundation

/// One run: when, how far, how long, and optionally its GPS track.
public struct RunRecord: Codable, Sendable, Equatable, StoredRecord {
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
    /// The key the recording device gave the run, so that a resend finds this record.
    public var clientKey: String?

    public static let databaseTableName = "records"

    public init(userID: Int64, startedAt: Date, distanceMeters: Int, durationSeconds: Int, elevationGain: Int, note: String,
                noteHTML: String, visibility: Visibility, meetupID: Int64?, track: Data?, splits: String? = nil, createdAt: Date = Date(),
                clientKey: String? = nil) {
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
        self.clientKey = clientKey
    }
}

extension RunRecord: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    static let columns = ["id", "userID", "startedAt", "distanceMeters", "durationSeconds", "elevationGain", "note", "noteHTML", "visibility", "meetupID", "track", "createdAt", "splits", "clientKey"]
    static let selection = SQLSelection(columns, table: "records")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        try row.checkColumns(Self.columns, from: offset)
        id = try row.decode(atIndex: offset)
        userID = try row.decode(atIndex: offset + 1)
        startedAt = try row.date(atIndex: offset + 2)
        distanceMeters = try row.decode(atIndex: offset + 3)
        durationSeconds = try row.decode(atIndex: offset + 4)
        elevationGain = try row.decode(atIndex: offset + 5)
        note = try row.decode(atIndex: offset + 6)
        noteHTML = try row.decode(atIndex: offset + 7)
        visibility = try row.decodeRawValue(atIndex: offset + 8)
        meetupID = try row.decode(atIndex: offset + 9)
        track = try row.decode(atIndex: offset + 10)
        createdAt = try row.date(atIndex: offset + 11)
        splits = try row.decode(atIndex: offset + 12)
        clientKey = try row.decode(atIndex: offset + 13)
    }

    var columnValues: [(any SQLBindable)?] {
        [userID, startedAt, distanceMeters, durationSeconds, elevationGain, note, noteHTML, visibility.rawValue, meetupID, track, createdAt, splits, clientKey]
    }
}
