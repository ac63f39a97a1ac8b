import Foundation

/// Feeds are pages of posts, newest first. A page ends where the next begins: the cursor is
/// the id of the last post shown (of the last bookmark, for bookmarks), and the next page
/// holds smaller ones, so posts written meanwhile neither repeat nor push anything out of
/// sight (they appear on top).
///
/// Every feed is one statement (`FeedStatement`) for its posts' numbers and the viewer's
/// likes and bookmarks; their text, authors and photos come from `KeptRows`, or from two more
/// statements for the posts whose revision is not kept.
extension FeedStore {
    /// Posts by the people `userID` follows, their own, and posts in their crews.
    public func homeFeed(userID: Int64, before cursor: Int64?, limit: Int = 20) throws -> FeedPage {
        // The member's timeline (see `TimelinesSchema`), each row's reason
        // checked again: their own post, someone they follow, a crew they are in.
        try database.readRows { try database.feedPage($0, .home, viewerID: userID, before: cursor, limit: limit) }
    }

    /// Everyone's posts.
    public func publicFeed(before cursor: Int64?, limit: Int = 20, viewerID: Int64?) throws -> FeedPage {
        try database.readRows { try database.feedPage($0, .everyone, viewerID: viewerID, before: cursor, limit: limit) }
    }

    /// Posts carrying `tag` (already normalised).
    public func tagFeed(tag: String, before cursor: Int64?, limit: Int = 20, viewerID: Int64?) throws -> FeedPage {
        try database.readRows { try database.feedPage($0, .tag, viewerID: viewerID, before: cursor, limit: limit, [tag]) }
    }

    /// One member's posts.
    public func userPosts(userID: Int64, before cursor: Int64?, limit: Int = 20, viewerID: Int64?) throws -> FeedPage {
        try database.readRows { try database.feedPage($0, .member, viewerID: viewerID, before: cursor, limit: limit, [userID]) }
    }

    /// A crew's posts.
    public func crewPosts(crewID: Int64, before cursor: Int64?, limit: Int = 20, viewerID: Int64?) throws -> FeedPage {
        try database.readRows { try database.feedPage($0, .crew, viewerID: viewerID, before: cursor, limit: limit, [crewID]) }
    }

    /// The posts `userID` bookmarked, most recently bookmarked first; the cursor is a bookmark id.
    public func bookmarkedPosts(userID: Int64, before cursor: Int64?, limit: Int = 20) throws -> FeedPage {
        try database.readRows { try database.feedPage($0, .bookmarks, viewerID: userID, before: cursor, limit: limit) }
    }

    /// The post with its author and photos, as `viewerID` sees it.
    public func feedItem(postID: Int64, viewerID: Int64?) throws -> FeedItem? {
        // One id bound as itself: a JSON list of one costs a post's page 1.5 µs to parse.
        try database.readRows { try database.items($0, try database.stamps($0, .one, [viewerID, Int64.max, 1, postID])).first }
    }
}

extension AppDatabase {
    /// One page: `limit` posts, and the cursor of the last if more follow.
    fileprivate func feedPage(
        _ connection: SQLConnection, _ statement: FeedStatement, viewerID: Int64?, before cursor: Int64?, limit: Int, _ arguments: [any SQLBindable] = []
    ) throws -> FeedPage {
        let stamps = try stamps(connection, statement, [viewerID, cursor ?? Int64.max, limit + 1] + arguments)
        let shown = stamps.prefix(limit)
        return FeedPage(items: try items(connection, shown), nextCursor: stamps.count > limit ? shown.last?.cursor : nil)
    }

    /// The posts with these ids that `viewerID` may see, in the order of `postIDs`.
    func feedItems(_ connection: SQLConnection, postIDs: [Int64], viewerID: Int64?) throws -> [FeedItem] {
        guard !postIDs.isEmpty else { return [] }
        let stamps = try stamps(connection, .chosen, [viewerID, Int64.max, postIDs.count, SQLConnection.jsonArray(postIDs)])
        let byID = Dictionary(stamps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return try items(connection, postIDs.compactMap { byID[$0] })
    }

    /// A feed statement's rows.
    fileprivate func stamps(_ connection: SQLConnection, _ statement: FeedStatement, _ arguments: [(any SQLBindable)?]) throws -> [FeedStamp] {
        try connection.fetchAll(statement.sql(for: connection.engine), arguments, FeedStamp.init(row:))
    }

    /// The posts of `stamps` with their counts as stamped, and their text, author and photos
    /// as kept at their revisions, or read now in one statement for those not kept (and one
    /// for their photos). A post deleted or changed since its stamp is left out of this page:
    /// the stamp's statement decided who may see it (hidden since, say), not the later read.
    fileprivate func items(_ connection: SQLConnection, _ stamps: some Collection<FeedStamp>) throws -> [FeedItem] {
        let shown = try kept.posts.values(stamps) { try keptPosts(connection, ids: $0) }
        return zip(stamps, shown).compactMap { stamp, kept in
            guard let kept, kept.revision == stamp.revision else { return nil }
            var post = kept.value.post
            post.likeCount = stamp.likeCount
            post.commentCount = stamp.commentCount
            return FeedItem(post: post, author: kept.value.author, photos: kept.value.photos, revision: kept.revision,
                            likedByViewer: stamp.liked, bookmarkedByViewer: stamp.bookmarked)
        }
    }

    /// Posts with these ids as cards show them, read and kept at their current revisions.
    fileprivate func keptPosts(_ connection: SQLConnection, ids: [Int64]) throws -> [Int64: Revised<KeptPost>] {
        let idList = [SQLConnection.jsonArray(ids)]
        let photos = Dictionary(grouping: try connection.fetchAll("""
            SELECT \(Photo.selection.bare) FROM photos WHERE postID IN (\(connection.idList("?"))) ORDER BY postID, position
            """, idList) { try Photo(row: $0, startingAt: 0) }, by: \.postID)
        let rows = try connection.fetchAll("""
            SELECT \(Post.selection.qualified), \(Author.selection.qualified), posts.revision FROM posts JOIN users ON users.id = posts.authorID
            WHERE posts.id IN (\(connection.idList("?")))
            """, idList) { row in
            let post = try Post(row: row, startingAt: 0)
            let shown = KeptPost(post: post, author: try Author(row: row, startingAt: Post.selection.count), photos: post.id.flatMap { photos[$0] } ?? [])
            return (id: try post.storedID, shown: Revised(revision: try row.decode("revision"), value: shown))
        }
        for row in rows { kept.posts.keep(row.id, row.shown, size: row.shown.value.size) }
        return Dictionary(rows.map { ($0.id, $0.shown) }, uniquingKeysWith: { first, _ in first })
    }
}

/// A post in a feed as its statement reads it: numbers only.
private struct FeedStamp: RowStamp, SQLColumns {
    var id: Int64
    var revision: Int64
    var likeCount: Int
    var commentCount: Int
    var liked: Bool
    var bookmarked: Bool
    var cursor: Int64

    /// The columns a feed statement selects, in this order (`selectList`), read by their place:
    /// by name, a page of 20 stamps cost a tenth more instructions than the rest of the feed.
    enum Columns: Int, SQLColumn {
        case id, revision, likeCount, commentCount, liked, bookmarked, feedCursor
    }

    static let selection = SQLSelection(Columns.self, table: "posts")

    /// The select list of a statement whose cursor is `cursor`, `?1` being the viewer.
    static func selectList(cursor: String) -> String {
        Columns.selectList { column in
            switch column {
            case .id, .revision, .likeCount, .commentCount: "posts.\(column.name)"
            case .liked: "EXISTS (SELECT 1 FROM likes WHERE likes.userID = ?1 AND likes.postID = posts.id)"
            case .bookmarked: "EXISTS (SELECT 1 FROM bookmarks WHERE bookmarks.userID = ?1 AND bookmarks.postID = posts.id)"
            case .feedCursor: cursor
            }
        }
    }

    init(row: some PositionalRow) throws {
        let column = try row.columns(of: Self.self)
        (id, revision, likeCount, commentCount) = (try column(.id), try column(.revision), try column(.likeCount), try column(.commentCount))
        (liked, bookmarked, cursor) = (try column(.liked), try column(.bookmarked), try column(.feedCursor))
    }
}

/// The statement of a feed. Each row holds the post's id, revision and counts, whether the
/// viewer (`?1`, NULL for a visitor) liked and bookmarked it, and the cursor value
/// (`FeedStamp`); `?2` is the cursor to start below and `?3` the number of rows. What the
/// viewer may not see is left out here, so that a page is full: posts of people they blocked
/// or who blocked them, and posts hidden by moderators unless the viewer wrote them or is
/// staff. (Most people block nobody: the two uncorrelated checks run once per statement and
/// spare each row two lookups.)
struct FeedStatement {
    private let text: PerEngine<String>

    /// `source` and `condition` are built for each engine (they differ only in how a list of
    /// ids is passed).
    init(from source: (SQLConnection.Engine) -> String, cursor: String, where condition: (SQLConnection.Engine) -> String = { _ in "TRUE" }) {
        text = PerEngine { engine in Self.sql(from: source(engine), cursor: cursor, where: condition(engine)) }
    }

    init(from source: String, cursor: String, where condition: String = "TRUE") {
        self.init(from: { _ in source }, cursor: cursor, where: { _ in condition })
    }

    func sql(for engine: SQLConnection.Engine) -> String {
        text[engine]
    }

    private static func sql(from source: String, cursor: String, where condition: String) -> String {
        """
            SELECT \(FeedStamp.selectList(cursor: cursor))
            FROM \(source)
            WHERE \(cursor) < ?2 AND (\(condition))
              AND ((NOT EXISTS (SELECT 1 FROM blocks WHERE blockerID = ?1) AND NOT EXISTS (SELECT 1 FROM blocks WHERE blockedID = ?1))
                   OR (NOT EXISTS (SELECT 1 FROM blocks WHERE blockerID = ?1 AND blockedID = posts.authorID)
                       AND NOT EXISTS (SELECT 1 FROM blocks WHERE blockerID = posts.authorID AND blockedID = ?1)))
              AND (posts.hiddenAt IS NULL OR posts.authorID = ?1
                   OR EXISTS (SELECT 1 FROM users AS viewer WHERE viewer.id = ?1 AND viewer.role IN ('moderator', 'admin')))
            ORDER BY \(cursor) DESC LIMIT ?3
            """
    }

    /// Built once: the statement cache finds them by their text.
    static let home = FeedStatement(from: "timeline JOIN posts ON posts.id = timeline.postID", cursor: "timeline.postID", where: """
        timeline.userID = ?1
        AND (posts.authorID = ?1
             OR EXISTS (SELECT 1 FROM follows WHERE followerID = ?1 AND followeeID = posts.authorID)
             OR EXISTS (SELECT 1 FROM crewMembers WHERE crewID = posts.crewID AND userID = ?1 AND role != 'pending'))
        """)
    static let everyone = FeedStatement(from: "posts", cursor: "posts.id")
    static let tag = FeedStatement(from: "postTags JOIN posts ON posts.id = postTags.postID", cursor: "postTags.postID", where: "postTags.tag = ?4")
    static let member = FeedStatement(from: "posts", cursor: "posts.id", where: "posts.authorID = ?4")
    static let crew = FeedStatement(from: "posts", cursor: "posts.id", where: "posts.crewID = ?4")
    static let bookmarks = FeedStatement(from: "bookmarks JOIN posts ON posts.id = bookmarks.postID", cursor: "bookmarks.id", where: "bookmarks.userID = ?1")
    /// The post with the id in `?4`.
    static let one = FeedStatement(from: "posts", cursor: "posts.id", where: "posts.id = ?4")
    /// Posts picked elsewhere (a search), as a JSON array of ids in `?4`, read from the list and
    /// ordered by it: ordered by `posts.id`, PostgreSQL's plan walked the posts from the newest
    /// down to the oldest one picked (8.7 ms for a rare word's hits spread over 100,000 posts;
    /// 0.5 ms now).
    static let chosen = FeedStatement(from: { "(\(SQLConnection.idList("?4", engine: $0))) AS chosen JOIN posts ON posts.id = chosen.value" },
                                      cursor: "chosen.value")
}
