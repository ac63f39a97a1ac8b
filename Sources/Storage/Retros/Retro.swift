import Foundation

/// A retrospective (KeyGo) of a crew, or of one meetup: the people in it leave keyword
/// feedback for each other before it starts; each sees what they received from the start on.
/// In a crew's, its members take part; in a meetup's, its host and the people who attended.
public struct Retro: Codable, Sendable, Equatable, StoredRecord {
    public var id: Int64?
    public var crewID: Int64?
    public var meetupID: Int64? = nil
    public var name: String
    public var startsAt: Date
    public var closedAt: Date?
    public var createdBy: Int64?
    public var createdAt: Date

    public static let databaseTableName = "retros"

    public func hasStarted(at now: Date) -> Bool { now >= startsAt }
}

/// One piece of feedback: Continue or Stop, a keyword, why, and optionally what to start.
public struct Feedback: Codable, Sendable, Equatable, StoredRecord {
    public enum Kind: String, Codable, Sendable, CaseIterable { case `continue`, stop }

    public var id: Int64?
    public var retroID: Int64
    public var authorID: Int64
    public var recipientID: Int64
    public var kind: Kind
    public var keyword: String
    public var description: String
    public var toStart: String
    public var createdAt: Date
    public var updatedAt: Date

    public static let databaseTableName = "retroFeedback"

    public init(retroID: Int64, authorID: Int64, recipientID: Int64, kind: Kind, keyword: String, description: String, toStart: String, now: Date = Date()) {
        self.retroID = retroID
        self.authorID = authorID
        self.recipientID = recipientID
        self.kind = kind
        self.keyword = keyword
        self.description = description
        self.toStart = toStart
        self.createdAt = now
        self.updatedAt = now
    }
}

extension Retro: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    static let columns = ["id", "crewID", "meetupID", "name", "startsAt", "closedAt", "createdBy", "createdAt"]
    static let selection = SQLSelection(columns, table: "retros")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        try row.checkColumns(Self.columns, from: offset)
        id = try row.decode(atIndex: offset)
        crewID = try row.decode(atIndex: offset + 1)
        meetupID = try row.decode(atIndex: offset + 2)
        name = try row.decode(atIndex: offset + 3)
        startsAt = try row.date(atIndex: offset + 4)
        closedAt = try row.optionalDate(atIndex: offset + 5)
        createdBy = try row.decode(atIndex: offset + 6)
        createdAt = try row.date(atIndex: offset + 7)
    }

    var columnValues: [(any SQLBindable)?] {
        [crewID, meetupID, name, startsAt, closedAt, createdBy, createdAt]
    }
}

extension Feedback: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    static let columns = ["id", "retroID", "authorID", "recipientID", "kind", "keyword", "description", "toStart", "createdAt", "updatedAt"]
    static let selection = SQLSelection(columns, table: "retroFeedback")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        try row.checkColumns(Self.columns, from: offset)
        id = try row.decode(atIndex: offset)
        retroID = try row.decode(atIndex: offset + 1)
        authorID = try row.decode(atIndex: offset + 2)
        recipientID = try row.decode(atIndex: offset + 3)
        kind = try row.decodeRawValue(atIndex: offset + 4)
        keyword = try row.decode(atIndex: offset + 5)
        description = try row.decode(atIndex: offset + 6)
        toStart = try row.decode(atIndex: offset + 7)
        createdAt = try row.date(atIndex: offset + 8)
        updatedAt = try row.date(atIndex: offset + 9)
    }

    var columnValues: [(any SQLBindable)?] {
        [retroID, authorID, recipientID, kind.rawValue, keyword, description, toStart, createdAt, updatedAt]
    }
}
