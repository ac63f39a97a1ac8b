import Foundation

/// A comment on a crew's page (the Crewous guestbook): any member of the site may write one.
public struct CrewComment: Codable, Sendable, Equatable, StoredRecord {
    public var id: Int64?
    public var crewID: Int64
    public var authorID: Int64
    public var body: String
    public var bodyHTML: String
    public var createdAt: Date

    public static let databaseTableName = "crewComments"
}

extension CrewComment: SQLRecord {
    /// The columns `init(row:)` reads, in its order (queries select `selection`).
    enum Columns: Int, SQLColumn {
        case id, crewID, authorID, body, bodyHTML, createdAt
    }

    static let selection = SQLSelection(Columns.self, table: "crewComments")

    init(row: some PositionalRow, startingAt offset: Int) throws {
        let column = try row.columns(of: Self.self, from: offset)
        id = try column(.id)
        crewID = try column(.crewID)
        authorID = try column(.authorID)
        body = try column(.body)
        bodyHTML = try column(.bodyHTML)
        createdAt = try column(.createdAt)
    }

    func stored(_ column: Columns) -> (any SQLBindable)? {
        switch column {
        case .id: id
        case .crewID: crewID
        case .authorID: authorID
        case .body: body
        case .bodyHTML: bodyHTML
        case .createdAt: createdAt
        }
    }
}

extension CrewStore {
    public func addCrewComment(crewID: Int64, authorID: Int64, body: String, bodyHTML: String, now: Date = Date()) throws -> CrewComment {
        try database.write { db in
            guard try db.exists(Crew.self, id: crewID) else { throw StorageError.notFound }
            var comment = CrewComment(id: nil, crewID: crewID, authorID: authorID, body: body, bodyHTML: bodyHTML, createdAt: now)
            comment.id = try db.insert(comment)
            try db.execute("UPDATE crews SET lastActivityAt = ? WHERE id = ?", [now, crewID])
            db.changed(.guestbook(crewID: crewID))
            return comment
        }
    }

    /// Deletes a crew comment; its author or the crew's staff may.
    public func deleteCrewComment(id: Int64, by userID: Int64) throws {
        try database.write { db in
            guard let comment = try db.record(CrewComment.self, id: id) else { throw StorageError.notFound }
            if comment.authorID != userID { try database.requireStaff(db, crewID: comment.crewID, userID: userID) }
            try db.delete(comment)
        }
    }

    /// The newest comments first, with their authors; none by anyone the viewer blocks or is
    /// blocked by.
    public func crewComments(crewID: Int64, viewerID: Int64? = nil, limit: Int = 100) throws -> [(comment: CrewComment, author: User)] {
        try database.read { db in
            let comments = try db.records(CrewComment.self, """
                SELECT \(CrewComment.selection.bare) FROM crewComments
                WHERE crewID = ?1 AND \(AppDatabase.unblocked(viewer: "?3", "authorID")) ORDER BY id DESC LIMIT ?2
                """, [crewID, limit, viewerID])
            let authors = try db.records(User.self, ids: Set(comments.map(\.authorID))).reduce(into: [Int64: User]()) { $0[$1.id ?? 0] = $1 }
            return comments.compactMap { comment in authors[comment.authorID].map { (comment, $0) } }
        }
    }

    /// Deletes a crew post as the crew's staff (moderation); returns its photo files.
    public func deleteCrewPost(id: Int64, by userID: Int64) throws -> [String] {
        try database.write { db in
            guard let post = try db.record(Post.self, id: id), let crewID = post.crewID else { throw StorageError.notFound }
            try database.requireStaff(db, crewID: crewID, userID: userID)
            let files = try db.values("SELECT fileName FROM photos WHERE postID = ?", [id], as: String.self)
            try db.delete(post)
            return files
        }
    }
}
