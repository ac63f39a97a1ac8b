import Foundation

/// A comment under a post, possibly a reply to another. A deleted comment that has replies
/// stays as a placeholder (`deletedAt` set, text emptied) so the thread keeps its shape.
public struct Comment: Codable, Sendable, Equatable, StoredRecord {
    public var id: Int64?
    public var postID: Int64
    public var authorID: Int64
    public var parentID: Int64?
    public var depth: Int
    public var body: String
    public var bodyHTML: String
    public var createdAt: Date
    public var updatedAt: Date?
    public var deletedAt: Date?
    public var hiddenAt: Date?

    public static let databaseTableName = "comments"
    /// Replies nest this deep; a reply to a comment at this depth stays at it.
    public static let maximumDepth = 4
}

/// A comment with its author, in thread order.
extension Comment: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`); `revision`,
    /// last, is the triggers' (`RevisionsSchema`).
    static let columns = ["id", "postID", "authorID", "parentID", "depth", "body", "bodyHTML", "createdAt", "updatedAt", "deletedAt", "hiddenAt"]
    static let selection = SQLSelection(columns, table: "comments")


    /// `columns` as a thread reads them: the Markdown source left out (an empty text stands in).
    static let threadColumns = columns.map { $0 == "body" ? "'' AS body" : "comments." + $0 }.joined(separator: ", ")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        try row.checkColumns(Self.columns, from: offset)
        id = try row.decode(atIndex: offset)
        postID = try row.decode(atIndex: offset + 1)
        authorID = try row.decode(atIndex: offset + 2)
        parentID = try row.decode(atIndex: offset + 3)
        depth = try row.decode(atIndex: offset + 4)
        body = try row.decode(atIndex: offset + 5)
        bodyHTML = try row.decode(atIndex: offset + 6)
        createdAt = try row.date(atIndex: offset + 7)
        updatedAt = try row.optionalDate(atIndex: offset + 8)
        deletedAt = try row.optionalDate(atIndex: offset + 9)
        hiddenAt = try row.optionalDate(atIndex: offset + 10)
    }

    var columnValues: [(any SQLBindable)?] {
        [postID, authorID, parentID, depth, body, bodyHTML, createdAt, updatedAt, deletedAt, hiddenAt]
    }
}

public struct ThreadComment: Sendable, Equatable {
    public var comment: Comment
    public var author: Author
}
