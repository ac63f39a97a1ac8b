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

    /// What a list or a lock screen says of a message: its text, or for one without, its
    /// place (a pin and the name), else its photos (a camera).
    public static func preview(of body: String, place: String?) -> String {
        !body.isEmpty ? body : place.map { "📍 " + $0 } ?? "📷"
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

/// A photo sent with a message, in the media folder as a post's are.
public struct MessagePhoto: Sendable, Equatable, StoredRecord {
    public var id: Int64?
    public var messageID: Int64
    public var position: Int
    public var fileName: String
    public var mediaType: String
    public var width: Int
    public var height: Int
    public var byteCount: Int
    /// Its mean colour, 0xRRGGBB.
    public var tone: Int?
    /// The widths at which its JPEG stands in for its WebP.
    public var jpegWidths: [Int]

    public static let databaseTableName = "messagePhotos"
    /// Photos one message holds at most.
    public static let maximumCount = 10

    init(messageID: Int64, position: Int, _ photo: NewPhoto) {
        self.messageID = messageID
        self.position = position
        fileName = photo.fileName
        mediaType = photo.mediaType
        width = photo.width
        height = photo.height
        byteCount = photo.byteCount
        tone = photo.tone
        jpegWidths = photo.jpegWidths
    }
}

extension MessagePhoto: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    enum Columns: Int, SQLColumn {
        case id, messageID, position, fileName, mediaType, width, height, byteCount, tone, jpegWidths
    }

    static let selection = SQLSelection(Columns.self, table: "messagePhotos")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        messageID = try column(.messageID)
        position = try column(.position)
        fileName = try column(.fileName)
        mediaType = try column(.mediaType)
        width = try column(.width)
        height = try column(.height)
        byteCount = try column(.byteCount)
        tone = try column(.tone)
        jpegWidths = WidthList.widths(try column(.jpegWidths))
    }

    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .messageID: messageID
        case .position: position
        case .fileName: fileName
        case .mediaType: mediaType
        case .width: width
        case .height: height
        case .byteCount: byteCount
        case .tone: tone
        case .jpegWidths: WidthList.text(jpegWidths)
        }
    }
}

/// A message as a room shows it: with its author, its photos, and the message it replies to.
public struct MessageItem: Sendable, Equatable {
    public var message: Message
    public var author: Author
    public var photos: [MessagePhoto] = []
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
    /// The newest message's author and text (nil when deleted), and its place, if there is one.
    public var lastAuthor: String?
    public var lastBody: String?
    public var lastPlace: String?
}
