import Foundation

/// A post found by a search, with the matching text marked.
public struct PostMatch: Sendable, Equatable {
    public var item: FeedItem
    /// An excerpt of the body in which matches are wrapped in `SearchMarker.start`/`.end`.
    /// Not HTML: escape it, then turn the markers into `<mark>`.
    public var excerpt: String
}

/// Control characters that cannot occur in stored text, used to mark matches in excerpts.
public enum SearchMarker {
    public static let start = "\u{1}"
    public static let end = "\u{2}"
}

extension FeedStore {
    /// Posts containing `query`, best matches first. The trigram index answers queries of three
    /// characters or more (any language, any substring); shorter ones, such as two-syllable
    /// Korean words, fall back to a bounded scan of recent posts.
    public func searchPosts(_ query: String, viewerID: Int64?, limit: Int = 20) throws -> [PostMatch] {
        let search = SearchText(query)
        guard !search.isEmpty else { return [] }
        // The ids found, best first, with their excerpts.
        let found: [(id: Int64, excerpt: String)]
        if search.usesIndex, database.engine.searchesThroughTables {
            // The matches and their snippets, two statements: one snapshot.
            found = try database.read { db in
                let phrase = search.phrase
                // bm25 over every match of a common word took 20-40 ms; ranking the newest 500
                // matches takes a few, whatever the size of the site.
                let ids = try db.values("""
                    SELECT rowid FROM (
                        SELECT rowid, bm25(postSearch) AS score FROM postSearch WHERE postSearch MATCH ? ORDER BY rowid DESC LIMIT 500
                    ) ORDER BY score LIMIT ?
                    """, [phrase, limit], as: Int64.self)
                guard !ids.isEmpty else { return [] }
                let excerpts = try db.fetchAll("""
                    SELECT rowid, snippet(postSearch, 0, char(1), char(2), '…', 24) AS excerpt FROM postSearch
                    WHERE postSearch MATCH ? AND rowid IN (SELECT value FROM json_each(?))
                    """, [phrase, SQLConnection.jsonArray(ids)]) { (try $0.decode(Int64.self, atIndex: 0), try $0.decode(String.self, atIndex: 1)) }
                    .reduce(into: [Int64: String]()) { $0[$1.0] = $1.1 }
                return ids.map { ($0, excerpts[$0] ?? "") }
            }
        } else {
            found = try database.readRows { db in
                // From three characters on PostgreSQL, pg_trgm's index answers LIKE and ILIKE;
                // the newest 500 matches are ranked by trigram similarity, as SQLite ranks them
                // by bm25. Planned for the word searched: a common one is found faster walking
                // the newest posts, a rare one through the index, and the one plan for any word
                // read all 12,000 matches of a common one. Shorter text: the newest posts.
                let (matches, arguments): (String, [any SQLBindable]) = search.usesIndex
                    ? ("""
                        SELECT id, body FROM (SELECT id, body FROM posts WHERE body \(db.like(search)) ? ESCAPE '\\' ORDER BY id DESC LIMIT 500) AS found
                        ORDER BY similarity(body, ?) DESC, id DESC LIMIT ?
                        """, [search.containsPattern, search.text, limit])
                    : ("""
                        SELECT id, body FROM (SELECT id, body FROM posts ORDER BY id DESC LIMIT 5000) AS recent
                        WHERE body \(db.like(search)) ? ESCAPE '\\' ORDER BY id DESC LIMIT ?
                        """, [search.containsPattern, limit])
                return try db.fetchAll(matches, arguments, planEachRun: search.usesIndex) { row in
                    (try row.decode(Int64.self, atIndex: 0), AppDatabase.excerpt(of: try row.decode(String.self, atIndex: 1), around: search.text))
                }
            }
        }
        let items = try database.readRows { try database.feedItems($0, postIDs: found.map(\.id), viewerID: viewerID) }
        let excerpts = Dictionary(found, uniquingKeysWith: { first, _ in first })
        return items.map { PostMatch(item: $0, excerpt: excerpts[$0.post.id ?? 0] ?? "") }
    }

    /// Members whose username starts with, or display name contains, `query`: the member of
    /// that very username or display name first, then the others by username.
    public func searchUsers(_ query: String, limit: Int = 10) throws -> [User] {
        let search = SearchText(query)
        guard !search.isEmpty else { return [] }
        // Both statements are planned for the text searched: on PostgreSQL a rare text is found
        // through the trigram index of display names, a common one by walking the usernames.
        return try database.readRows { db in
            // Usernames are a–z, 0–9 and _: text that can start one is also found as a range of
            // the username index, walked in order until the page is full (10,000 members named
            // "Runner …" were all sorted before: 10 ms on PostgreSQL).
            if search.text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) {
                let username = search.text.lowercased()
                return try db.fetchAll("""
                    SELECT * FROM (SELECT \(User.selection.qualified), 0 AS rank FROM users WHERE username = ?1) AS exact
                    UNION ALL
                    SELECT * FROM (
                        SELECT \(User.selection.qualified), 1 AS rank FROM users
                        WHERE ((username >= ?1 AND username < ?2) OR displayName \(db.like(search)) ?3 ESCAPE '\\') AND username <> ?1
                        ORDER BY username LIMIT ?4
                    ) AS others
                    ORDER BY rank, username LIMIT ?4
                    """, [username, username + "~", search.containsPattern, limit], planEachRun: true) { try User(row: $0, startingAt: 0) }
            }
            // Other text (Hangul, spaces) is in display names only: one read of the members
            // beats walking them in username order.
            return try db.fetchAll("""
                SELECT \(User.selection.bare) FROM users WHERE displayName \(db.like(search)) ?1 ESCAPE '\\' ORDER BY displayName = ?2 DESC, username LIMIT ?3
                """, [search.containsPattern, search.text, limit], planEachRun: true) { try User(row: $0, startingAt: 0) }
        }
    }

    /// Tags starting with `prefix` (normalised), most used first, with their post counts.
    public func searchTags(_ prefix: String, limit: Int = 10) throws -> [(tag: String, posts: Int)] {
        guard !prefix.isEmpty else { return [] }
        return try database.readRows { db in
            // A range on the primary key instead of LIKE, which would not use the index.
            try db.fetchAll("""
                SELECT tag, count(*) AS posts FROM postTags WHERE tag >= ? AND tag < ? GROUP BY tag ORDER BY posts DESC, tag LIMIT ?
                """, [prefix, prefix + "\u{10FFFF}", limit]) { (try $0.decode(String.self, atIndex: 0), try $0.decode(Int.self, atIndex: 1)) }
        }
    }
}

extension AppDatabase {
    static func excerpt(of body: String, around query: String) -> String {
        guard let range = body.range(of: query, options: .caseInsensitive) else { return String(body.prefix(160)) }
        let start = body.index(range.lowerBound, offsetBy: -60, limitedBy: body.startIndex) ?? body.startIndex
        let end = body.index(range.upperBound, offsetBy: 80, limitedBy: body.endIndex) ?? body.endIndex
        return (start == body.startIndex ? "" : "…") + body[start..<range.lowerBound] + SearchMarker.start
            + body[range] + SearchMarker.end + body[range.upperBound..<end] + (end == body.endIndex ? "" : "…")
    }
}
