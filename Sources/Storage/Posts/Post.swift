import Foundation

/// A post: its Markdown source and the HTML rendered from it when it was written.
public struct Post: Codable, Sendable, Equatable, StoredRecord {
    public var id: Int64?
    public var authorID: Int64
    public var body: String
    public var bodyHTML: String
    public var createdAt: Date
    public var updatedAt: Date?
    public var likeCount: Int
    public var commentCount: Int
    /// The crew this post was written in, if any; its members see it in their home feeds.
    public var crewID: Int64?
    /// Set when moderators hid the post: only its author and staff still see it.
    public var hiddenAt: Date?
    public var commentsLocked: Bool

    public static let databaseTableName = "posts"
}

/// A stored image of a post.
public struct Photo: Codable, Sendable, Equatable, StoredRecord {
    public var id: Int64?
    public var postID: Int64
    public var position: Int
    public var fileName: String
    public var mediaType: String
    public var width: Int
    public var height: Int
    public var byteCount: Int
    /// Its mean colour, 0xRRGGBB; nil for photos stored before tones.
    public var tone: Int?
    /// The widths at which its JPEG stands in for its WebP (`ProcessedImage.jpegWidths`).
    public var jpegWidths: [Int] = []

    public static let databaseTableName = "photos"
}

/// An image already written to the media folder, to attach to a new post.
public struct NewPhoto: Sendable {
    public var fileName: String
    public var mediaType: String
    public var width: Int
    public var height: Int
    public var byteCount: Int
    public var tone: Int?
    public var jpegWidths: [Int]

    public init(fileName: String, mediaType: String, width: Int, height: Int, byteCount: Int, tone: Int? = nil, jpegWidths: [Int] = []) {
        self.fileName = fileName
        self.mediaType = mediaType
        self.width = width
        self.height = height
        self.byteCount = byteCount
        self.tone = tone
        self.jpegWidths = jpegWidths
    }
}

/// What a writer sends: the source, its HTML, and what the HTML refers to.
public struct PostContent: Sendable {
    public var body: String
    public var bodyHTML: String
    public var tags: [String]
    /// Ids of mentioned users, to notify.
    public var mentionedUserIDs: [Int64]

    public init(body: String, bodyHTML: String, tags: [String], mentionedUserIDs: [Int64]) {
        self.body = body
        self.bodyHTML = bodyHTML
        self.tags = tags
        self.mentionedUserIDs = mentionedUserIDs
    }
}

/// A post as a reader sees it: with its author, photos, and what the reader did with it.
public struct FeedItem: Sendable, Equatable {
    public var post: Post
    public var author: Author
    public var photos: [Photo]
    /// Changes with everything of the post shown here but its counts and the reader's own
    /// (`RevisionsSchema`): what is rendered from the rest may be kept while it stands.
    public var revision: Int64
    public var likedByViewer: Bool
    public var bookmarkedByViewer: Bool
}

/// Who wrote a post or a comment, as pages show them: the four columns a byline needs, not
/// the whole account (decoding every column of `users` per post was a tenth of the feed's time).
public struct Author: Sendable, Equatable {
    public var id: Int64
    public var username: String
    public var displayName: String
    public var role: User.Role

    /// The columns `init(row:startingAt:)` reads, in order.
    static let columns = "users.id, users.username, users.displayName, users.role"

    init(row: some PositionalRow, startingAt offset: Int) throws {
        id = try row.decode(atIndex: offset)
        username = try row.decode(atIndex: offset + 1)
        displayName = try row.decode(atIndex: offset + 2)
        let role: String = try row.decode(atIndex: offset + 3)
        guard let known = User.Role(rawValue: role) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unknown role \(role)"))
        }
        self.role = known
    }
}

/// One page of a feed; `nextCursor` continues after its last item.
public struct FeedPage: Sendable {
    public var items: [FeedItem]
    public var nextCursor: Int64?
}

// Rows are decoded by hand, by position (`PositionalRow.checkColumns`): a fraction of what `Codable`
// costs per row (it was half of the feed's read), and a stored value of the wrong type is an
// error for the page, not a trap.
extension Post: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`); `revision`,
    /// last, is the triggers' (`RevisionsSchema`).
    static let columns = ["id", "authorID", "body", "bodyHTML", "createdAt", "updatedAt", "likeCount", "commentCount", "crewID", "hiddenAt", "commentsLocked"]
    static let selection = SQLSelection(columns, table: "posts")

    /// Reads the columns from `offset` on, where a joined row holds them after another table's.
    init(row: some PositionalRow, startingAt offset: Int) throws {
        try row.checkColumns(Self.columns, from: offset)
        id = try row.decode(atIndex: offset)
        authorID = try row.decode(atIndex: offset + 1)
        body = try row.decode(atIndex: offset + 2)
        bodyHTML = try row.decode(atIndex: offset + 3)
        createdAt = try row.date(atIndex: offset + 4)
        updatedAt = try row.optionalDate(atIndex: offset + 5)
        likeCount = try row.decode(atIndex: offset + 6)
        commentCount = try row.decode(atIndex: offset + 7)
        crewID = try row.decode(atIndex: offset + 8)
        hiddenAt = try row.optionalDate(atIndex: offset + 9)
        commentsLocked = try row.decode(atIndex: offset + 10)
    }

    var columnValues: [(any SQLBindable)?] {
        [authorID, body, bodyHTML, createdAt, updatedAt, likeCount, commentCount, crewID, hiddenAt, commentsLocked]
    }
}

extension Photo: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    static let columns = ["id", "postID", "position", "fileName", "mediaType", "width", "height", "byteCount", "tone", "jpegWidths"]
    static let selection = SQLSelection(columns, table: "photos")


    init(row: some PositionalRow, startingAt offset: Int) throws {
        try row.checkColumns(Self.columns, from: offset)
        id = try row.decode(atIndex: offset)
        postID = try row.decode(atIndex: offset + 1)
        position = try row.decode(atIndex: offset + 2)
        fileName = try row.decode(atIndex: offset + 3)
        mediaType = try row.decode(atIndex: offset + 4)
        width = try row.decode(atIndex: offset + 5)
        height = try row.decode(atIndex: offset + 6)
        byteCount = try row.decode(atIndex: offset + 7)
        tone = try row.decode(atIndex: offset + 8)
        jpegWidths = WidthList.widths(try row.decode(atIndex: offset + 9))
    }

    var columnValues: [(any SQLBindable)?] {
        [postID, position, fileName, mediaType, width, height, byteCount, tone, WidthList.text(jpegWidths)]
    }
}
