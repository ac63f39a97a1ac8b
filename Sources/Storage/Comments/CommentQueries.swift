import Foundation

extension CommentStore {
    /// Adds a comment (or a reply to `parentID`) and notifies the post's author, the author of
    /// the comment replied to, and mentioned users — each once.
    public func addComment(postID: Int64, authorID: Int64, parentID: Int64?, content: PostContent, now: Date = Date()) throws -> Comment {
        try database.write { db in
            guard let post = try db.record(Post.self, id: postID), post.hiddenAt == nil || post.authorID == authorID else { throw StorageError.notFound }
            if try post.commentsLocked || database.isBlocked(db, authorID, post.authorID) { throw StorageError.forbidden }
            var depth = 0
            var parentAuthor: Int64? = nil
            if let parentID {
                guard let parent = try db.record(Comment.self, id: parentID), parent.postID == postID, parent.deletedAt == nil else {
                    throw StorageError.notFound
                }
                depth = min(parent.depth + 1, Comment.maximumDepth)
                parentAuthor = parent.authorID
            }
            var comment = Comment(id: nil, postID: postID, authorID: authorID, parentID: parentID, depth: depth,
                                  body: content.body, bodyHTML: content.bodyHTML, createdAt: now, updatedAt: nil, deletedAt: nil, hiddenAt: nil)
            comment.id = try db.insert(comment)
            let commentID = try comment.storedID
            try db.execute("UPDATE posts SET commentCount = commentCount + 1 WHERE id = ?", [postID])

            var notified: Set<Int64> = [authorID]
            if let parentAuthor, !notified.contains(parentAuthor) {
                try database.insertNotification(db, userID: parentAuthor, kind: .reply, actorID: authorID, postID: postID, commentID: commentID, now: now)
                notified.insert(parentAuthor)
            }
            if !notified.contains(post.authorID) {
                try database.insertNotification(db, userID: post.authorID, kind: .comment, actorID: authorID, postID: postID, commentID: commentID, now: now)
                notified.insert(post.authorID)
            }
            try database.notifyMentions(db, actorID: authorID, userIDs: content.mentionedUserIDs.filter { !notified.contains($0) },
                               postID: postID, commentID: commentID, now: now)
            return comment
        }
    }

    public func editComment(id: Int64, authorID: Int64, content: PostContent, now: Date = Date()) throws -> Comment {
        try database.write { db in
            guard var comment = try db.record(Comment.self, id: id), comment.authorID == authorID, comment.deletedAt == nil else {
                throw StorageError.notFound
            }
            comment.body = content.body
            comment.bodyHTML = content.bodyHTML
            comment.updatedAt = now
            try db.update(comment)
            return comment
        }
    }

    /// Deletes a comment of `authorID`: removed outright if nobody replied, otherwise kept as
    /// "[deleted]" under its replies. Returns the post id.
    @discardableResult
    public func deleteComment(id: Int64, authorID: Int64, now: Date = Date()) throws -> Int64 {
        try database.write { db in
            guard var comment = try db.record(Comment.self, id: id), comment.authorID == authorID, comment.deletedAt == nil else {
                throw StorageError.notFound
            }
            let hasReplies = try db.value("SELECT EXISTS (SELECT 1 FROM comments WHERE parentID = ?)", [id], as: Bool.self) ?? false
            if hasReplies {
                comment.body = ""
                comment.bodyHTML = ""
                comment.deletedAt = now
                try db.update(comment)
            } else {
                try db.delete(comment)
            }
            try db.execute("UPDATE posts SET commentCount = commentCount - 1 WHERE id = ?", [comment.postID])
            return comment.postID
        }
    }

    public func comment(id: Int64) throws -> Comment? {
        try database.read { db in try db.record(Comment.self, id: id) }
    }

    /// A post's comments in thread order: each comment followed by its replies, oldest first.
    /// Hidden comments show only to their author and staff, and blocked people's not at all;
    /// their replies stay. Their `body` is empty: a thread shows the HTML, and only the edit
    /// form (`comment(id:)`) needs the Markdown source.
    public func thread(postID: Int64, viewerID: Int64? = nil, limit: Int = 500) throws -> [ThreadComment] {
        // Who the viewer is, then the comments: one snapshot each, as a block or a role that
        // changes between the two would also have changed a moment later.
        try database.readRows { connection in
            let viewer = try Viewer.load(connection, id: viewerID)
            let stamps = try connection.fetchAll("SELECT \(CommentStamp.selection.bare) FROM comments WHERE postID = ? ORDER BY id LIMIT ?", [postID, limit],
                                                 CommentStamp.init(row:))
            let shown = try database.kept.comments.values(stamps) { try keptComments(connection, ids: $0) }
            let entries = shown.compactMap { kept -> ThreadComment? in
                // A comment deleted since its stamp is left out.
                guard var entry = kept?.value else { return nil }
                if !viewer.sees(authorID: entry.comment.authorID, hiddenAt: entry.comment.hiddenAt) {
                    // Kept as a placeholder so that replies keep their place.
                    entry.comment.bodyHTML = ""
                    entry.comment.deletedAt = entry.comment.deletedAt ?? entry.comment.hiddenAt ?? Date.distantPast
                }
                return entry
            }
            return threadOrder(entries.map { ($0.comment.id, $0.comment.parentID) }).map { entries[$0] }
        }
    }
}


private struct CommentStamp: RowStamp, SQLColumns {
    let id: Int64
    let revision: Int64

    /// Read by place, as a thread reads up to 500 of them.
    enum Columns: Int, SQLColumn {
        case id, revision
    }

    static let selection = SQLSelection(Columns.self, table: "comments")

    init(row: some PositionalRow) throws {
        let column = try row.columns(of: Self.self)
        (id, revision) = (try column(.id), try column(.revision))
    }
}

/// The positions of comments (id and parent, oldest first) in thread order: each followed by
/// its replies, depth first. A reply whose parent is not among them is left out, as its
/// place in the thread is unknown. Positions rather than comments, so that none is copied
/// on the way (copying each comment twice was a tenth of a long thread's page).
func threadOrder(_ comments: [(id: Int64?, parentID: Int64?)]) -> [Int] {
    let position = Dictionary(comments.indices.compactMap { index in comments[index].id.map { ($0, index) } },
                              uniquingKeysWith: { first, _ in first })
    // Each comment's replies as a chain: its first reply, then each reply's next sibling. The
    // top level is one more chain, kept after the comments' own (at `comments.count`).
    let top = comments.count
    var firstReply = [Int](repeating: -1, count: top + 1)
    var lastReply = firstReply
    var nextSibling = [Int](repeating: -1, count: top)
    for (index, comment) in comments.enumerated() {
        var parent = top
        if let parentID = comment.parentID {
            guard let found = position[parentID], found != index else { continue }
            parent = found
        }
        if lastReply[parent] < 0 { firstReply[parent] = index } else { nextSibling[lastReply[parent]] = index }
        lastReply[parent] = index
    }
    // Down to the first reply while there is one; else on to the next sibling of the nearest
    // comment that has one. A comment in a loop of parents is in no chain the walk reaches.
    var ordered: [Int] = []
    ordered.reserveCapacity(comments.count)
    var ancestors: [Int] = []
    var next = firstReply[top]
    while next >= 0, ordered.count < comments.count {
        ordered.append(next)
        if firstReply[next] >= 0 {
            ancestors.append(next)
            next = firstReply[next]
        } else {
            var current = next
            while nextSibling[current] < 0, let parent = ancestors.popLast() { current = parent }
            next = nextSibling[current]
        }
    }
    return ordered
}

extension CommentStore {
    /// Comments with these ids as a thread shows them, read and kept at their current revisions.
    private func keptComments(_ connection: SQLConnection, ids: [Int64]) throws -> [Int64: Revised<ThreadComment>] {
        let rows = try connection.fetchAll("""
            SELECT \(Comment.threadColumns), \(Author.selection.qualified), comments.revision FROM comments JOIN users ON users.id = comments.authorID
            WHERE comments.id IN (\(connection.idList("?")))
            """, [SQLConnection.jsonArray(ids)]) { row in
            let entry = ThreadComment(comment: try Comment(row: row, startingAt: 0), author: try Author(row: row, startingAt: Comment.selection.count))
            return (id: try entry.comment.storedID, entry: Revised(revision: try row.decode("revision"), value: entry))
        }
        for row in rows { database.kept.comments.keep(row.id, row.entry, size: 256 + row.entry.value.comment.bodyHTML.utf8.count) }
        return Dictionary(rows.map { ($0.id, $0.entry) }, uniquingKeysWith: { first, _ in first })
    }
}
