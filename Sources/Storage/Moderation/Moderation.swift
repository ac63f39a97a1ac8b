import Foundation

/// What can be reported and moderated.
public enum ModerationTarget: String, Codable, Sendable, CaseIterable {
    case post, comment, crew, meetup, user, message

    /// The table holding a `hiddenAt` for this kind of content, if it can be hidden.
    var table: String? {
        switch self {
        case .post: "posts"
        case .comment: "comments"
        case .crew: "crews"
        case .meetup: "meetups"
        case .user, .message: nil  // a message is deleted to its tombstone, never hidden
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
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    enum Columns: Int, SQLColumn {
        case id, moderatorID, action, targetType, targetID, targetLabel, reason, createdAt
    }

    static let selection = SQLSelection(Columns.self, table: "moderationLog")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        moderatorID = try column(.moderatorID)
        action = try column(.action)
        targetType = try column(.targetType)
        targetID = try column(.targetID)
        targetLabel = try column(.targetLabel)
        reason = try column(.reason)
        createdAt = try column(.createdAt)
    }

    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .moderatorID: moderatorID
        case .action: action
        case .targetType: targetType
        case .targetID: targetID
        case .targetLabel: targetLabel
        case .reason: reason
        case .createdAt: createdAt
        }
    }
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
        let role = try connection.value("SELECT role FROM users WHERE id = ?", [id], as: String.self)
        let blocked = try connection.values("""
            SELECT blockedID FROM blocks WHERE blockerID = ?1 UNION SELECT blockerID FROM blocks WHERE blockedID = ?1
            """, [id], as: Int64.self)
        return Viewer(id: id, isStaff: role == "admin" || role == "moderator", blocked: Set(blocked))
    }

    /// Hidden content shows only to its author and staff; blocked people's content never shows.
    func sees(authorID: Int64, hiddenAt: Date?) -> Bool {
        if blocked.contains(authorID) { return false }
        return hiddenAt == nil || isStaff || authorID == id
    }
}
