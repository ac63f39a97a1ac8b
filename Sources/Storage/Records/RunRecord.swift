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
    enum Columns: Int, SQLColumn {
        case id, userID, startedAt, distanceMeters, durationSeconds, elevationGain, note, noteHTML, visibility, meetupID, track, createdAt, splits, clientKey
    }

    static let selection = SQLSelection(Columns.self, table: "records")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        userID = try column(.userID)
        startedAt = try column(.startedAt)
        distanceMeters = try column(.distanceMeters)
        durationSeconds = try column(.durationSeconds)
        elevationGain = try column(.elevationGain)
        note = try column(.note)
        noteHTML = try column(.noteHTML)
        visibility = try column(.visibility)
        meetupID = try column(.meetupID)
        track = try column(.track)
        createdAt = try column(.createdAt)
        splits = try column(.splits)
        clientKey = try column(.clientKey)
    }

    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .userID: userID
        case .startedAt: startedAt
        case .distanceMeters: distanceMeters
        case .durationSeconds: durationSeconds
        case .elevationGain: elevationGain
        case .note: note
        case .noteHTML: noteHTML
        case .visibility: visibility.rawValue
        case .meetupID: meetupID
        case .track: track
        case .createdAt: createdAt
        case .splits: splits
        case .clientKey: clientKey
        }
    }
}
