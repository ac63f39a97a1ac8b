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
    public static let startCharacter: Character = "\u{1}"
    public static let endCharacter: Character = "\u{2}"
    public static let start = String(startCharacter)
    public static let end = String(endCharacter)
}

extension FeedStore {
    /// Posts containing `query`, newest first, each with an excerpt around its first match.
    /// Each kind of text is read through an index, newest match first, until the page is full:
    /// a search costs the same on a site of ten thousand posts as on one of a million.
    /// - Two Hangul syllables (러닝, 한강): `postGrams`.
    /// - Three characters or more, any language: the trigram index (SQLite's FTS5 table,
    ///   PostgreSQL's `pg_trgm`).
    /// - Anything shorter (`5k`, one syllable): the newest 5,000 posts, read in order.
    public func searchPosts(_ query: String, viewerID: Int64?, limit: Int = 20) throws -> [PostMatch] {
        let search = SearchText(query)
        guard !search.isEmpty else { return [] }
        // Twice the page, since some of them may be hidden from this viewer.
        let wanted = limit * 2
        let found = try database.readRows { db -> [(id: Int64, body: String)] in
            let bodies = { (ids: [Int64]) in
                try db.fetchAll("SELECT id, body FROM posts WHERE id IN (\(db.idList("?"))) ORDER BY id DESC", [SQLConnection.jsonArray(ids)]) {
                    (try $0.decode("id", as: Int64.self), try $0.decode("body", as: String.self))
                }
            }
            if search.isHangulPair {
                return try bodies(db.values("SELECT postID FROM postGrams WHERE gram = ? ORDER BY postID DESC LIMIT ?", [search.text, wanted], as: Int64.self))
            }
            if search.usesIndex, let matches = database.engine.searchMatches("postSearch") {
                // No bm25: ranking needs the count of every match of each trigram, 12 ms for a
                // common word on 100,000 posts. The newest matches are read and the walk stops.
                return try bodies(db.values("\(matches) ORDER BY rowid DESC LIMIT ?", [search.phrase, wanted], as: Int64.self))
            }
            // From three characters on PostgreSQL, pg_trgm's index answers LIKE and ILIKE,
            // planned for the word searched: a common one is found faster walking the newest
            // posts, a rare one through the index. Shorter text: the newest posts.
            let (matches, arguments): (String, [any SQLBindable]) = search.usesIndex
                ? ("SELECT id, body FROM posts WHERE body \(db.like(search)) ? ESCAPE '\\' ORDER BY id DESC LIMIT ?", [search.containsPattern, wanted])
                : ("""
                    SELECT id, body FROM (SELECT id, body FROM posts ORDER BY id DESC LIMIT 5000) AS recent
                    WHERE body \(db.like(search)) ? ESCAPE '\\' ORDER BY id DESC LIMIT ?
                    """, [search.containsPattern, wanted])
            return try db.fetchAll(matches, arguments, planEachRun: search.usesIndex) {
                (try $0.decode("id", as: Int64.self), try $0.decode("body", as: String.self))
            }
        }
        let items = try database.readRows { try database.feedItems($0, postIDs: found.map(\.id), viewerID: viewerID) }.prefix(limit)
        // Excerpts of the posts shown only.
        let bodies = Dictionary(found, uniquingKeysWith: { first, _ in first })
        return items.map { PostMatch(item: $0, excerpt: AppDatabase.excerpt(of: bodies[$0.post.id ?? 0] ?? "", around: search.text)) }
    }

    /// One step of merging SQLite's search indexes (posts, crews) into one segment each, at
    /// most `pages` pages of each written; true while segments remain. FTS5 adds a segment
    /// with each write and merges them only now and then, and a search reads every segment:
    /// on 1,000,000 posts a common word took 283 µs across the segments left by the writes,
    /// 47 µs once they were one. Nothing to do on PostgreSQL, whose indexes are B-trees and GIN.
    public func mergeSearchIndexes(pages: Int = 500) throws -> Bool {
        let tables = database.engine.searchTables
        guard !tables.isEmpty else { return false }
        return try database.write { db in
            // A step with nothing left to merge changes one row (the index's structure).
            try tables.reduce(false) { working, table in
                try db.execute("INSERT INTO \(table)(\(table), rank) VALUES('merge', ?)", [-max(1, pages)]) > 1 || working
            }
        }
    }

    /// Members whose username starts with `query`, or whose display name contains it: the
    /// member of that very username or display name first, then the others by username.
    /// Found through `nameKeys`, of which the first `SearchText.keysRead` in order are read.
    public func searchUsers(_ query: String, viewerID: Int64? = nil, limit: Int = 10) throws -> [User] {
        let search = SearchText(query)
        guard !search.isEmpty else { return [] }
        let range = search.keyRange
        return try database.readRows { db in
            try db.fetchAll("""
                SELECT \(User.selection.bare) FROM users WHERE id IN (\(AppDatabase.namedIDs(kind: "user")))
                AND \(AppDatabase.unblocked(viewer: "?5", "users.id"))
                ORDER BY (username = ?3 OR lower(displayName) = ?3) DESC, username LIMIT ?4
                """, [range.lower, range.upper, search.asciiLowercased, limit, viewerID]) { try User(row: $0, startingAt: 0) }
        }
    }

    /// Tags starting with `prefix` (normalised), most used first, with their post counts: of the
    /// first `SearchText.keysRead` tags in order, from `tagCounts`.
    public func searchTags(_ prefix: String, limit: Int = 10) throws -> [(tag: String, posts: Int)] {
        guard !prefix.isEmpty else { return [] }
        return try database.readRows { db in
            try db.fetchAll("""
                SELECT tag, posts FROM (
                    SELECT tag, posts FROM tagCounts WHERE tag >= ? AND tag < ? AND posts > 0 ORDER BY tag LIMIT \(SearchText.keysRead)
                ) AS named ORDER BY posts DESC, tag LIMIT ?
                """, [prefix, prefix + "\u{10FFFF}", limit]) { (try $0.decode("tag", as: String.self), try $0.decode("posts", as: Int.self)) }
        }
    }
}

extension AppDatabase {
    /// A subquery of the ids of items of `kind` whose name holds a text, given the
    /// placeholders its key range (`SearchText.keyRange`) is bound to.
    static func namedIDs(kind: String, from lower: String = "?1", to upper: String = "?2", reading keys: Int = SearchText.keysRead) -> String {
        """
        SELECT itemID FROM (
            SELECT itemID FROM nameKeys WHERE kind = '\(kind)' AND key >= \(lower) AND key < \(upper) ORDER BY kind, key LIMIT \(keys)
        ) AS named
        """
    }

    static func excerpt(of body: String, around query: String) -> String {
        guard let range = firstMatch(of: query, in: body) else { return String(body.prefix(160)) }
        let start = body.index(range.lowerBound, offsetBy: -60, limitedBy: body.startIndex) ?? body.startIndex
        let end = body.index(range.upperBound, offsetBy: 80, limitedBy: body.endIndex) ?? body.endIndex
        return (start == body.startIndex ? "" : "…") + body[start..<range.lowerBound] + SearchMarker.start
            + body[range] + SearchMarker.end + body[range.upperBound..<end] + (end == body.endIndex ? "" : "…")
    }

    /// Where `query` first occurs in `body`, ignoring the case of ASCII letters, found in the
    /// bytes. Foundation's search ignoring case (every script's) took 10 µs a post; it is left
    /// for text with other letters that have a case.
    static func firstMatch(of query: String, in body: String) -> Range<String.Index>? {
        if query.unicodeScalars.contains(where: { !$0.isASCII && $0.properties.changesWhenCaseMapped }) {
            return body.range(of: query, options: .caseInsensitive)
        }
        let folded = { (byte: UInt8) in byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        let needle = query.utf8.map(folded)
        guard let first = needle.first else { return nil }
        let bytes = body.utf8
        var start = bytes.startIndex
        while let found = bytes[start...].firstIndex(where: { folded($0) == first }) {
            var end = found, matched = 0
            while matched < needle.count, end < bytes.endIndex, folded(bytes[end]) == needle[matched] {
                bytes.formIndex(after: &end)
                matched += 1
            }
            // The needle starts with a scalar's first byte, so a match starts on a scalar.
            if matched == needle.count { return found..<end }
            start = bytes.index(after: found)
        }
        return nil
    }
}
