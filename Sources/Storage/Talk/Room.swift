import Foundation

/// A place to talk: a crew's own room, one of its topic rooms, a direct conversation between
/// two members, or a small group.
public struct Room: Sendable, Equatable, StoredRecord {
    public enum Kind: String, Sendable, CaseIterable {
        case crew, topic, meetup, direct, group
    }

    public var id: Int64?
    public var kind: Kind
    public var crewID: Int64?
    /// A meetup's talk: its host and those accepted.
    public var meetupID: Int64?
    /// A topic room's name ("정모"), or a group's if it was given one.
    public var name: String?
    /// A direct conversation's two member ids, lower first (`3:17`): one per pair.
    public var directKey: String?
    public var createdBy: Int64?
    public var createdAt: Date
    public var archivedAt: Date?
    /// The newest message (0 for none), and when it was sent (the room's creation before).
    public var lastMessageID: Int64
    public var lastMessageAt: Date

    public static let databaseTableName = "rooms"

    /// Staff of the crew run it: they add and archive topic rooms and delete messages.
    public var isCrews: Bool { kind == .crew || kind == .topic }
    /// Who is in it follows something else (a crew's members, a meetup's accepted): it is not left here.
    public var isKept: Bool { isCrews || kind == .meetup }

    /// Groups hold at most this many members, their starter included.
    public static let groupLimit = 20

    static func directKey(_ a: Int64, _ b: Int64) -> String { "\(min(a, b)):\(max(a, b))" }
}

extension Room: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    enum Columns: Int, SQLColumn {
        case id, kind, crewID, meetupID, name, directKey, createdBy, createdAt, archivedAt, lastMessageID, lastMessageAt
    }

    static let selection = SQLSelection(Columns.self, table: "rooms")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        kind = try column(.kind)
        crewID = try column(.crewID)
        meetupID = try column(.meetupID)
        name = try column(.name)
        directKey = try column(.directKey)
        createdBy = try column(.createdBy)
        createdAt = try column(.createdAt)
        archivedAt = try column(.archivedAt)
        lastMessageID = try column(.lastMessageID)
        lastMessageAt = try column(.lastMessageAt)
    }

    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .kind: kind.rawValue
        case .crewID: crewID
        case .meetupID: meetupID
        case .name: name
        case .directKey: directKey
        case .createdBy: createdBy
        case .createdAt: createdAt
        case .archivedAt: archivedAt
        case .lastMessageID: lastMessageID
        case .lastMessageAt: lastMessageAt
        }
    }
}

/// A member's place in a room: how far they have read, how many messages wait for them, and
/// whether the room is muted for them.
public struct RoomMembership: Sendable, Equatable {
    public enum State: String, Sendable {
        case joined
        /// A first message from someone they do not know, waiting in "Requests".
        case request
    }

    public var roomID: Int64
    public var userID: Int64
    public var state: State
    public var lastReadID: Int64
    public var unread: Int
    public var mutedUntil: Date?
    public var joinedAt: Date

    public func isMuted(at now: Date) -> Bool { mutedUntil.map { $0 > now } ?? false }
}

extension RoomMembership: SQLColumns {
    enum Columns: Int, SQLColumn {
        case roomID, userID, state, lastReadID, unread, mutedUntil, joinedAt
    }

    static let selection = SQLSelection(Columns.self, table: "roomMembers")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        roomID = try column(.roomID)
        userID = try column(.userID)
        state = try column(.state)
        lastReadID = try column(.lastReadID)
        unread = try column(.unread)
        mutedUntil = try column(.mutedUntil)
        joinedAt = try column(.joinedAt)
    }
}

/// Who may start a conversation with a member.
public enum WhoMayStart: String, Sendable, CaseIterable {
    case anyone
    /// People the member follows.
    case following
    /// People who share a crew with the member.
    case crewmates
    case nobody
}
