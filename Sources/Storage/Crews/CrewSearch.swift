import Foundation

/// How a crew list is ordered.
public enum CrewOrder: String, Sendable, CaseIterable {
    /// Most recent posts, comments and joins first.
    case activity
    case newest
}

extension CrewStore {
    /// Crews matching `query` in name or description (trigram FTS5 from three characters, a
    /// scan below), filtered by sport and region.
    public func searchCrews(_ query: String, sport: Crew.Sport?, region: String?, order: CrewOrder, limit: Int = 30) throws -> [Crew] {
        let search = SearchText(query)
        var conditions: [String] = ["crews.hiddenAt IS NULL"]
        var arguments: [any SQLBindable] = []
        if search.usesIndex, let matches = database.engine.searchMatches("crewSearch") {
            conditions.append("crews.id IN (\(matches))")
            arguments.append(search.phrase)
        } else if !search.isEmpty {
            // On PostgreSQL, pg_trgm's index on both columns answers ILIKE.
            let pattern = search.containsPattern, like = SQLConnection.like(search, engine: database.engine)
            conditions.append("(crews.name \(like) ? ESCAPE '\\' OR crews.description \(like) ? ESCAPE '\\')")
            arguments += [pattern, pattern]
        }
        if let sport {
            conditions.append("crews.sport = ?")
            arguments.append(sport.rawValue)
        }
        if let region {
            conditions.append("crews.region = ?")
            arguments.append(region)
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let orderBy = order == .activity ? "crews.lastActivityAt DESC, crews.id DESC" : "crews.id DESC"
        return try database.readRows { connection in
            // A handful of filter combinations, each prepared once.
            try connection.fetchAll("SELECT \(Crew.selection.qualified) FROM crews \(filter) ORDER BY \(orderBy) LIMIT ?", arguments + [limit]) {
                try Crew(row: $0, startingAt: 0)
            }
        }
    }

    /// Crews whose name contains `query` (suggestions), the most members first, of those the
    /// first `SearchText.keysRead` keys of `nameKeys` name.
    public func crewsNamed(_ query: String, limit: Int = 5) throws -> [Crew] {
        let search = SearchText(query)
        guard !search.isEmpty else { return [] }
        let range = search.keyRange
        return try database.readRows { db in
            try db.fetchAll("""
                SELECT \(Crew.selection.bare) FROM crews WHERE id IN (\(AppDatabase.namedIDs(kind: "crew"))) AND hiddenAt IS NULL
                ORDER BY memberCount DESC, id LIMIT ?3
                """, [range.lower, range.upper, limit]) { try Crew(row: $0, startingAt: 0) }
        }
    }

    /// Crews `userID` has not joined: those the people they follow belong to, then those in
    /// their region or of the sports of their crews, biggest first.
    public func recommendedCrews(userID: Int64, region: String?, limit: Int = 6) throws -> [Crew] {
        try database.readRows { connection in
            try connection.fetchAll("""
                SELECT ranked.* FROM (
                    SELECT \(Crew.selection.qualified),
                        (SELECT count(*) FROM crewMembers m JOIN follows f ON f.followeeID = m.userID
                         WHERE m.crewID = crews.id AND m.role != 'pending' AND f.followerID = ?1) AS friends
                    FROM crews
                    WHERE crews.id NOT IN (SELECT crewID FROM crewMembers WHERE userID = ?1)
                ) AS ranked
                WHERE ranked.friends > 0 OR ranked.region = ?2
                      OR ranked.sport IN (SELECT c.sport FROM crews c JOIN crewMembers m ON m.crewID = c.id WHERE m.userID = ?1)
                ORDER BY ranked.friends DESC, coalesce(ranked.region = ?2, FALSE) DESC, ranked.memberCount DESC, ranked.id
                LIMIT ?3
                """, [userID, region, limit]) { try Crew(row: $0, startingAt: 0) }
        }
    }
}
