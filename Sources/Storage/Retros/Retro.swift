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
    enum Columns: Int, SQLColumn {
        case id, crewID, meetupID, name, startsAt, closedAt, createdBy, createdAt
    }

    static let selection = SQLSelection(Columns.self, table: "retros")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        crewID = try column(.crewID)
        meetupID = try column(.meetupID)
        name = try column(.name)
        startsAt = try column(.startsAt)
        closedAt = try column(.closedAt)
        createdBy = try column(.createdBy)
        createdAt = try column(.createdAt)
    }

    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .crewID: crewID
        case .meetupID: meetupID
        case .name: name
        case .startsAt: startsAt
        case .closedAt: closedAt
        case .createdBy: createdBy
        case .createdAt: createdAt
        }
    }
}

extension Feedback: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    enum Columns: Int, SQLColumn {
        case id, retroID, authorID, recipientID, kind, keyword, description, toStart, createdAt, updatedAt
    }

    static let selection = SQLSelection(Columns.self, table: "retroFeedback")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        retroID = try column(.retroID)
        authorID = try column(.authorID)
        recipientID = try column(.recipientID)
        kind = try column(.kind)
        keyword = try column(.keyword)
        description = try column(.description)
        toStart = try column(.toStart)
        createdAt = try column(.createdAt)
        updatedAt = try column(.updatedAt)
    }

    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .retroID: retroID
        case .authorID: authorID
        case .recipientID: recipientID
        case .kind: kind.rawValue
        case .keyword: keyword
        case .description: description
        case .toStart: toStart
        case .createdAt: createdAt
        case .updatedAt: updatedAt
        }
    }
}
