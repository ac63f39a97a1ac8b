import Foundation

/// What can be reported and moderated.
public enum ModerationTarget: String, Codable, Sendable, CaseIterable {
    case post, comment, crew, meetup, user

    /// The table holding a `hiddenAt` for this kind of content, if it can be hidden.
    var table: String? {
        switch self {
        case .post: "posts"
        case .comment: "comments"
        case .crew: "crews"
        case .meetup: "meetups"
        case .user: nil
        }
    }
}

public enum ReportReason: String, Codable, Sendable, CaseIterable {
    case spam, harassment, inappropriate, offTopic, other
}

/// One line of the moderation log.
public struct LogEntry: Codable, Sendable, Equatable, StoredRecord {
    public var id: Int64?
    /// Nil for automatic actions (auto-hide).
    public var moderatorID: Int64?
    public var action: String
    public var targetType: String
    public var targetID: Int64
    /// What the target was, kept for the record even after deletion.
    public var targetLabel: String
    public var reason: String
    public var createdAt: Date

    public static let databaseTableName = "moderationLog"
}

extension LogEntry: SQLRecord {
    static let columns = ["id", "moderatorID", "action", "targetType", "targetID", "targetLabel", "reason", "createdAt"]
    static let selection = SQLSelection(columns, table: "moderationLog")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        try row.checkColumns(Self.columns, from: offset)
        id = try row.decode(atIndex: offset)
        moderatorID = try row.decode(atIndex: offset + 1)
        action = try row.decode(atIndex: offset + 2)
        targetType = try row.decode(atIndex: offset + 3)
        targetID = try row.decode(atIndex: offset + 4)
        targetLabel = try row.decode(atIndex: offset + 5)
        reason = try row.decode(atIndex: offset + 6)
        createdAt = try row.date(atIndex: offset + 7)
    }

    var columnValues: [(any SQLBindable)?] { [moderatorID, action, targetType, targetID, targetLabel, reason, createdAt] }
}

/// Open reports about one target, grouped.
public struct ReportGroup: Sendable, Equatable {
    public var targetType: ModerationTarget
    public var targetID: Int64
    public var count: Int
    public var reasons: [ReportReason]
    public var notes: [String]
    public var latest: Date
}

/// Who is looking, for hiding what they should not see.
struct Viewer {
    var id: Int64?
    var isStaff: Bool
    /// People this viewer blocked, and people who blocked this viewer.
    var blocked: Set<Int64>

    static func load(_ connection: SQLConnection, id: Int64?) throws -> Viewer {
        guard let id else { return Viewer(id: nil, isStaff: false, blocked: []) }
        let role = try connection.fetchOne("SELECT role FROM users WHERE id = ?", [id]) { try $0.decode(atIndex: 0) as String }
        let blocked = try connection.fetchAll("""
            SELECT blockedID FROM blocks WHERE blockerID = ?1 UNION SELECT blockerID FROM blocks WHERE blockedID = ?1
            """, [id]) { try $0.decode(atIndex: 0) as Int64 }
        return Viewer(id: id, isStaff: role == "admin" || role == "moderator", blocked: Set(blocked))
    }

    /// Hidden content shows only to its author and staff; blocked people's content never shows.
    func sees(authorID: Int64, hiddenAt: Date?) -> Bool {
        if blocked.contains(authorID) { return false }
        return hiddenAt == nil || isStaff || authorID == id
    }
}
