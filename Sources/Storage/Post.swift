import Foundation
import GRDB

/// A post: its Markdown source and the HTML rendered from it when it was written.
public struct Post: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord, StoredRecord {
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

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// A stored image of a post.
public struct Photo: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord, StoredRecord {
    public var id: Int64?
    public var postID: Int64
    public var position: Int
    public var fileName: String
    public var mediaType: String
    public var width: Int
    public var height: Int
    public var byteCount: Int

    public static let databaseTableName = "photos"

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// An image already written to the media folder, to attach to a new post.
public struct NewPhoto: Sendable {
    public var fileName: String
    public var mediaType: String
    public var width: Int
    public var height: Int
    public var byteCount: Int

    public init(fileName: String, mediaType: String, width: Int, height: Int, byteCount: Int) {
        self.fileName = fileName
        self.mediaType = mediaType
        self.width = width
        self.height = height
        self.byteCount = byteCount
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
    public var author: User
    public var photos: [Photo]
    public var likedByViewer: Bool
    public var bookmarkedByViewer: Bool
}

/// One page of a feed; `nextCursor` continues after its last item.
public struct FeedPage: Sendable {
    public var items: [FeedItem]
    public var nextCursor: Int64?
}

// Rows are decoded by hand: a fraction of what `Codable` costs per row (it was half of the
// feed's read), and a stored value of the wrong type is an error for the page, not a trap.
extension Post {
    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        authorID = try row.decode(forColumn: "authorID")
        body = try row.decode(forColumn: "body")
        bodyHTML = try row.decode(forColumn: "bodyHTML")
        createdAt = try row.decode(forColumn: "createdAt")
        updatedAt = try row.decode(forColumn: "updatedAt")
        likeCount = try row.decode(forColumn: "likeCount")
        commentCount = try row.decode(forColumn: "commentCount")
        crewID = try row.decode(forColumn: "crewID")
        hiddenAt = try row.decode(forColumn: "hiddenAt")
        commentsLocked = try row.decode(forColumn: "commentsLocked")
    }
}

extension Photo {
    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        postID = try row.decode(forColumn: "postID")
        position = try row.decode(forColumn: "position")
        fileName = try row.decode(forColumn: "fileName")
        mediaType = try row.decode(forColumn: "mediaType")
        width = try row.decode(forColumn: "width")
        height = try row.decode(forColumn: "height")
        byteCount = try row.decode(forColumn: "byteCount")
    }
}
