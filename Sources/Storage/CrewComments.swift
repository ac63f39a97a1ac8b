import Foundation
import GRDB

/// A comment on a crew's page (the Crewous guestbook): any member of the site may write one.
public struct CrewComment: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord, StoredRecord {
    public var id: Int64?
    public var crewID: Int64
    public var authorID: Int64
    public var body: String
    public var bodyHTML: String
    public var createdAt: Date

    public static let databaseTableName = "crewComments"

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension AppDatabase {
    public func addCrewComment(crewID: Int64, authorID: Int64, body: String, bodyHTML: String, now: Date = Date()) throws -> CrewComment {
        try writer.write { db in
            guard try Crew.exists(db, key: crewID) else { throw StorageError.notFound }
            var comment = CrewComment(id: nil, crewID: crewID, authorID: authorID, body: body, bodyHTML: bodyHTML, createdAt: now)
            try comment.insert(db)
            try db.execute(sql: "UPDATE crews SET lastActivityAt = ? WHERE id = ?", arguments: [now, crewID])
            return comment
        }
    }

    /// Deletes a crew comment; its author or the crew's staff may.
    public func deleteCrewComment(id: Int64, by userID: Int64) throws {
        try writer.write { db in
            guard let comment = try CrewComment.fetchOne(db, key: id) else { throw StorageError.notFound }
            if comment.authorID != userID { try requireStaff(db, crewID: comment.crewID, userID: userID) }
            try comment.delete(db)
        }
    }

    /// The newest comments first, with their authors.
    public func crewComments(crewID: Int64, limit: Int = 100) throws -> [(comment: CrewComment, author: User)] {
        try reader.read { db in
            let comments = try CrewComment.fetchAll(db.cachedStatement(sql: "SELECT * FROM crewComments WHERE crewID = ? ORDER BY id DESC LIMIT ?"),
                                                    arguments: [crewID, limit])
            let authors = try User.fetchAll(db, keys: Array(Set(comments.map(\.authorID)))).reduce(into: [Int64: User]()) { $0[$1.id ?? 0] = $1 }
            return comments.compactMap { comment in authors[comment.authorID].map { (comment, $0) } }
        }
    }

    /// Deletes a crew post as the crew's staff (moderation); returns its photo files.
    public func deleteCrewPost(id: Int64, by userID: Int64) throws -> [String] {
        try writer.write { db in
            guard let post = try Post.fetchOne(db, key: id), let crewID = post.crewID else { throw StorageError.notFound }
            try requireStaff(db, crewID: crewID, userID: userID)
            let files = try String.fetchAll(db.cachedStatement(sql: "SELECT fileName FROM photos WHERE postID = ?"), arguments: [id])
            try post.delete(db)
            return files
        }
    }
}
