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
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    enum Columns: Int, SQLColumn {
        case id, postID, authorID, parentID, depth, body, bodyHTML, createdAt, updatedAt, deletedAt, hiddenAt
    }

    static let selection = SQLSelection(Columns.self, table: "comments")


    /// `columns` as a thread reads them: the Markdown source left out (an empty text stands in).
    static let threadColumns = columns.map { $0 == "body" ? "'' AS body" : "comments." + $0 }.joined(separator: ", ")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        postID = try column(.postID)
        authorID = try column(.authorID)
        parentID = try column(.parentID)
        depth = try column(.depth)
        body = try column(.body)
        bodyHTML = try column(.bodyHTML)
        createdAt = try column(.createdAt)
        updatedAt = try column(.updatedAt)
        deletedAt = try column(.deletedAt)
        hiddenAt = try column(.hiddenAt)
    }

    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .postID: postID
        case .authorID: authorID
        case .parentID: parentID
        case .depth: depth
        case .body: body
        case .bodyHTML: bodyHTML
        case .createdAt: createdAt
        case .updatedAt: updatedAt
        case .deletedAt: deletedAt
        case .hiddenAt: hiddenAt
        }
    }
}

public struct ThreadComment: Sendable, Equatable {
    public var comment: Comment
    public var author: Author
}
