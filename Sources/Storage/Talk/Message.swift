import Foundation

/// A message in a room. A deleted one stays as a tombstone (`deletedAt`, its text gone), so
/// replies to it and the thread's order keep their places.
public struct Message: Sendable, Equatable, StoredRecord {
    public var id: Int64?
    public var roomID: Int64
    public var authorID: Int64
    public var body: String
    public var bodyHTML: String
    public var replyToID: Int64?
    /// A place picked on the map.
    public var placeName: String?
    public var latitude: Double?
    public var longitude: Double?
    public var createdAt: Date
    public var editedAt: Date?
    public var deletedAt: Date?

    public static let databaseTableName = "messages"
    /// The longest message, in code points (the schema's `length()`).
    public static let maximumLength = 4_000
    /// How long its author may edit a message.
    public static let editWindow: TimeInterval = 15 * 60

    public init(roomID: Int64, authorID: Int64, body: String, bodyHTML: String, replyToID: Int64? = nil,
                placeName: String? = nil, latitude: Double? = nil, longitude: Double? = nil, createdAt: Date) {
        self.roomID = roomID
        self.authorID = authorID
        self.body = body
        self.bodyHTML = bodyHTML
        self.replyToID = replyToID
        self.placeName = placeName
        self.latitude = latitude
        self.longitude = longitude
        self.createdAt = createdAt
    }

    public func isEditable(by userID: Int64, at now: Date) -> Bool {
        authorID == userID && deletedAt == nil && now.timeIntervalSince(createdAt) < Self.editWindow
    }
}

extension Message: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    enum Columns: Int, SQLColumn {
        case id, roomID, authorID, body, bodyHTML, replyToID, placeName, latitude, longitude, createdAt, editedAt, deletedAt
    }

    static let selection = SQLSelection(Columns.self, table: "messages")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        roomID = try column(.roomID)
        authorID = try column(.authorID)
        body = try column(.body)
        bodyHTML = try column(.bodyHTML)
        replyToID = try column(.replyToID)
        placeName = try column(.placeName)
        latitude = try column(.latitude)
        longitude = try column(.longitude)
        createdAt = try column(.createdAt)
        editedAt = try column(.editedAt)
        deletedAt = try column(.deletedAt)
    }

    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .roomID: roomID
        case .authorID: authorID
        case .body: body
        case .bodyHTML: bodyHTML
        case .replyToID: replyToID
        case .placeName: placeName
        case .latitude: latitude
        case .longitude: longitude
        case .createdAt: createdAt
        case .editedAt: editedAt
        case .deletedAt: deletedAt
        }
    }
}

/// A message as a room shows it: with its author, and the message it replies to.
public struct MessageItem: Sendable, Equatable {
    public var message: Message
    public var author: Author
    public var replyTo: Quote?

    /// The start of the message replied to, and who wrote it.
    public struct Quote: Sendable, Equatable {
        public var id: Int64
        public var authorName: String
        /// Empty when it was deleted.
        public var body: String
    }
}

/// A room as a member's inbox lists it.
public struct InboxEntry: Sendable, Equatable {
    public var room: Room
    public var membership: RoomMembership
    /// The crew of a crew or topic room.
    public var crewName: String?
    public var crewSlug: String?
    /// The meetup of a meetup's talk.
    public var meetupTitle: String?
    /// A direct conversation's other member, or the first others of a group.
    public var others: [String]
    /// The newest message's author and text (empty when deleted), if there is one.
    public var lastAuthor: String?
    public var lastBody: String?
}
