import Foundation

extension PostStore {
    // MARK: - Writes

    /// Saves a post with its tags and photos, and notifies the users it mentions. A crew post
    /// needs its author to be a member of the crew.
    public func createPost(authorID: Int64, content: PostContent, photos: [NewPhoto], crewID: Int64? = nil, now: Date = Date()) throws -> Post {
        try database.write { db in
            if let crewID {
                guard let role = try database.crewRole(db, crewID: crewID, userID: authorID), role != .pending else { throw StorageError.forbidden }
                try db.execute("UPDATE crews SET lastActivityAt = ? WHERE id = ?", [now, crewID])
            }
            var post = Post(id: nil, authorID: authorID, body: content.body, bodyHTML: content.bodyHTML,
                            createdAt: now, updatedAt: nil, likeCount: 0, commentCount: 0, crewID: crewID,
                            hiddenAt: nil, commentsLocked: false)
            post.id = try db.insert(post)
            let postID = try post.storedID
            try insertPhotos(db, photos, postID: postID, from: 0)
            try database.replaceSearchKeys(db, postID: postID, body: content.body, tags: content.tags)
            try database.notifyMentions(db, actorID: authorID, userIDs: content.mentionedUserIDs, postID: postID, commentID: nil, now: now)
            return post
        }
    }

    /// Changes a post's text; only its author may. Mentions new to this edit are notified.
    /// Changes a post's text and its photos: those with ids in `removing` go (the post's own;
    /// the rest keep their order), `adding` come after them. `.full` past ten photos, and
    /// `.rejected` for a post left with neither text nor photo. Returns the post and the files of
    /// the photos removed, for the caller to delete once this committed.
    @discardableResult
    public func updatePost(id: Int64, authorID: Int64, content: PostContent, removing: Set<Int64> = [], adding: [NewPhoto] = [],
                           now: Date = Date()) throws -> (post: Post, removedFiles: [String]) {
        try database.write { db in
            guard var post = try db.record(Post.self, id: id), post.authorID == authorID else { throw StorageError.notFound }
            let photos = try db.records(Photo.self, "SELECT \(Photo.selection.bare) FROM photos WHERE postID = ? ORDER BY position", [id])
            let (gone, kept) = (photos.filter { removing.contains($0.id ?? 0) }, photos.filter { !removing.contains($0.id ?? 0) })
            guard kept.count + adding.count <= Self.maximumPhotos else { throw StorageError.full }
            guard !content.body.isEmpty || kept.count + adding.count > 0 else { throw StorageError.rejected }
            for photo in gone { try db.execute("DELETE FROM photos WHERE id = ?", [photo.id]) }
            // Closed up in order: each moves down to a place already free.
            for (position, photo) in kept.enumerated() where photo.position != position {
                try db.execute("UPDATE photos SET position = ? WHERE id = ?", [position, photo.id])
            }
            try insertPhotos(db, adding, postID: id, from: kept.count)
            let alreadyNotified = Set(try db.values("""
                SELECT userID FROM notifications WHERE postID = ? AND commentID IS NULL AND kind = 'mention'
                """, [id], as: Int64.self))
            post.body = content.body
            post.bodyHTML = content.bodyHTML
            post.updatedAt = now
            try db.update(post)
            try database.replaceSearchKeys(db, postID: id, body: content.body, tags: content.tags)
            let newMentions = content.mentionedUserIDs.filter { !alreadyNotified.contains($0) }
            try database.notifyMentions(db, actorID: authorID, userIDs: newMentions, postID: id, commentID: nil, now: now)
            return (post, gone.map(\.fileName))
        }
    }

    /// The most photos a post holds (the schema's positions 0 to 9).
    public static let maximumPhotos = 10

    private func insertPhotos(_ db: SQLConnection, _ photos: [NewPhoto], postID: Int64, from first: Int) throws {
        for (offset, photo) in photos.enumerated() {
            var row = Photo(id: nil, postID: postID, position: first + offset, fileName: photo.fileName,
                            mediaType: photo.mediaType, width: photo.width, height: photo.height, byteCount: photo.byteCount,
                            tone: photo.tone, jpegWidths: photo.jpegWidths)
            row.id = try db.insert(row)
        }
    }

    /// Deletes a post (its comments, likes and tags go with it); only its author may.
    /// Returns the file names of its photos, for the caller to remove from disk.
    public func deletePost(id: Int64, authorID: Int64) throws -> [String] {
        try database.write { db in
            guard let post = try db.record(Post.self, id: id), post.authorID == authorID else { throw StorageError.notFound }
            let files = try db.values("SELECT fileName FROM photos WHERE postID = ?", [id], as: String.self)
            try db.delete(post)
            return files
        }
    }

    // MARK: - Reads

    /// Ids of the users with these usernames (ignoring case), by lower-cased username.
    public func userIDs(usernames: Set<String>) throws -> [String: Int64] {
        guard !usernames.isEmpty else { return [:] }
        let names = String(decoding: try JSONEncoder().encode(Array(usernames)), as: UTF8.self)
        return try database.readRows { db in
            // As citext on PostgreSQL, so that the comparison ignores case as SQLite's NOCASE column does.
            let rows = try db.fetchAll("SELECT id, username FROM users WHERE username IN (\(db.usernameList("?")))", [names]) {
                (try $0.decode("username", as: String.self).lowercased(), try $0.decode("id", as: Int64.self))
            }
            return Dictionary(rows, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Stored images, for making their variants: post photos in id order after `cursor` (a
    /// photo id), then, once those run out, every crew cover and every message's photo.
    public func storedImages(after cursor: Int64, limit: Int = 500) throws -> (images: [AppDatabase.StoredImage], next: Int64?) {
        try database.readRows { db in
            let photos = try db.fetchAll("SELECT id, fileName, width, jpegWidths FROM photos WHERE id > ? ORDER BY id LIMIT ?", [cursor, limit]) {
                (id: try $0.decode("id", as: Int64.self),
                 image: AppDatabase.StoredImage(fileName: try $0.decode("fileName"), width: try $0.decode("width"), jpegWidths: WidthList.widths(try $0.decode("jpegWidths"))))
            }
            if let last = photos.last, photos.count == limit { return (photos.map(\.image), last.id) }
            let covers = try db.fetchAll("SELECT coverFileName, coverWidth, coverJPEGWidths FROM crews WHERE coverFileName IS NOT NULL ORDER BY id", []) {
                AppDatabase.StoredImage(fileName: try $0.decode("coverFileName"), width: try $0.decode("coverWidth", as: Int?.self) ?? 0,
                            jpegWidths: WidthList.widths(try $0.decode("coverJPEGWidths")))
            }
            let messagePhotos = try db.fetchAll("SELECT fileName, width, jpegWidths FROM messagePhotos ORDER BY id", []) {
                AppDatabase.StoredImage(fileName: try $0.decode("fileName"), width: try $0.decode("width"), jpegWidths: WidthList.widths(try $0.decode("jpegWidths")))
            }
            return (photos.map(\.image) + covers + messagePhotos, nil)
        }
    }
}

extension AppDatabase {
    /// What search finds a post by: its tags and its pairs of Hangul syllables (`postGrams`),
    /// replaced by those of its new text. Tags go in in order, so that two posts written at
    /// once on PostgreSQL take the rows of `tagCounts` they share in the same order.
    func replaceSearchKeys(_ db: SQLConnection, postID: Int64, body: String, tags: [String]) throws {
        try db.execute("DELETE FROM postTags WHERE postID = ?", [postID])
        for tag in Set(tags).sorted() {
            try db.execute("INSERT INTO postTags (tag, postID) VALUES (?, ?)", [tag, postID])
        }
        try db.execute("DELETE FROM postGrams WHERE postID = ?", [postID])
        for gram in SearchText.hangulPairs(in: body) {
            try db.execute("INSERT INTO postGrams (gram, postID) VALUES (?, ?)", [gram, postID])
        }
    }

    func notifyMentions(_ db: SQLConnection, actorID: Int64, userIDs: [Int64], postID: Int64, commentID: Int64?, now: Date) throws {
        for userID in Set(userIDs) where userID != actorID {
            if try isBlocked(db, actorID, userID) { continue }
            try insertNotification(db, userID: userID, kind: .mention, actorID: actorID, postID: postID, commentID: commentID, now: now)
        }
    }
}

extension AppDatabase {
    /// A stored image as making its variants needs it.
    public struct StoredImage: Sendable {
        public let fileName: String
        public let width: Int
        /// The widths at which it has no WebP: its JPEG stands in.
        public let jpegWidths: [Int]
    }
}
