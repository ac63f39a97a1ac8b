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
public struct Author: Sendable, Equatable, SQLColumns {
    public var id: Int64
    public var username: String
    public var displayName: String
    public var role: User.Role

    /// The columns `init(row:startingAt:)` reads, in order: `\(Author.selection.qualified)`.
    enum Columns: Int, SQLColumn {
        case id, username, displayName, role
    }

    static let selection = SQLSelection(Columns.self, table: "users")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        username = try column(.username)
        displayName = try column(.displayName)
        role = try column(.role)
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
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    enum Columns: Int, SQLColumn {
        case id, authorID, body, bodyHTML, createdAt, updatedAt, likeCount, commentCount, crewID, hiddenAt, commentsLocked
    }

    static let selection = SQLSelection(Columns.self, table: "posts")

    /// Reads the columns from `offset` on, where a joined row holds them after another table's.
    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        authorID = try column(.authorID)
        body = try column(.body)
        bodyHTML = try column(.bodyHTML)
        createdAt = try column(.createdAt)
        updatedAt = try column(.updatedAt)
        likeCount = try column(.likeCount)
        commentCount = try column(.commentCount)
        crewID = try column(.crewID)
        hiddenAt = try column(.hiddenAt)
        commentsLocked = try column(.commentsLocked)
    }

    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .authorID: authorID
        case .body: body
        case .bodyHTML: bodyHTML
        case .createdAt: createdAt
        case .updatedAt: updatedAt
        case .likeCount: likeCount
        case .commentCount: commentCount
        case .crewID: crewID
        case .hiddenAt: hiddenAt
        case .commentsLocked: commentsLocked
        }
    }
}

extension Photo: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    enum Columns: Int, SQLColumn {
        case id, postID, position, fileName, mediaType, width, height, byteCount, tone, jpegWidths
    }

    static let selection = SQLSelection(Columns.self, table: "photos")


    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        postID = try column(.postID)
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
        case .postID: postID
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
