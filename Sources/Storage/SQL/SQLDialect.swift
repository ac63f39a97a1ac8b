import Foundation

/// Where SQLite and PostgreSQL differ, each difference named once: query files ask for
/// `db.greatest`, `db.dayOf(_:)` or `engine.searchMatches(_:)` and never compare engines
/// themselves, nor choose a text by engine (`QueryFilesTests` fails when one does).
extension SQLConnection.Engine {
    /// True when text searches have tables of their own to match (SQLite's FTS5 `…Search`
    /// tables, trigram and words); on PostgreSQL, pg_trgm's indexes answer `LIKE` instead.
    var searchesThroughTables: Bool { self == .sqlite }

    /// The search tables text searches match (SQLite's FTS5 `postSearch` and `crewSearch`),
    /// which FTS5 merges only when asked; none on PostgreSQL.
    var searchTables: [String] { searchesThroughTables ? ["postSearch", "crewSearch"] : [] }

    /// A subquery of the ids of the rows whose text the search table `table` matches to the
    /// phrase bound to its `?` (`SearchText.phrase`), or nil where there are no search tables
    /// and `LIKE` on the table itself is the way (PostgreSQL: pg_trgm's indexes answer it).
    func searchMatches(_ table: String) -> String? {
        searchesThroughTables ? "SELECT rowid FROM \(table) WHERE \(table) MATCH ?" : nil
    }

    /// True when other servers may share the database, so that what one process would keep
    /// in memory is kept in the database instead.
    var isShared: Bool { self == .postgres }
}

/// One text for each engine, chosen by the connection's: statements built once, found by
/// their text in the statement cache.
struct PerEngine<Value: Sendable>: Sendable {
    let sqlite: Value
    let postgres: Value

    /// Built for each engine by one function, which names the differences through the
    /// dialect's helpers (`SQLConnection.idList(_:engine:)`): how query files make theirs.
    init(_ make: (SQLConnection.Engine) -> Value) {
        sqlite = make(.sqlite)
        postgres = make(.postgres)
    }

    /// Two values written apart: for the engine folders only (`QueryFilesTests`).
    init(sqlite: Value, postgres: Value) {
        self.sqlite = sqlite
        self.postgres = postgres
    }

    subscript(engine: SQLConnection.Engine) -> Value {
        switch engine {
        case .sqlite: sqlite
        case .postgres: postgres
        }
    }
}

extension SQLConnection {
    /// The operator that matches `search`'s `LIKE` pattern ignoring case (`SQLConnection.like`).
    func like(_ search: SearchText) -> String {
        Self.like(search, engine: engine)
    }

    /// The operator that matches `search`'s `LIKE` pattern ignoring case, as SQLite's `LIKE`
    /// does for ASCII: PostgreSQL's `ILIKE`, or its plain `LIKE` when the text has no letter
    /// with a case (Hangul, digits): the same rows, matched byte by byte instead of through
    /// `lower()` on every row (a scan of 10,000 display names: 3.4 → 2.0 ms).
    static func like(_ search: SearchText, engine: Engine) -> String {
        engine == .postgres && search.hasCase ? "ILIKE" : "LIKE"
    }

    /// A subquery of the ids in `placeholder`, bound to a JSON array of integers
    /// (`jsonArray`), so that one prepared statement serves any number of ids.
    func idList(_ placeholder: String) -> String {
        Self.idList(placeholder, engine: engine)
    }

    static func idList(_ placeholder: String, engine: Engine) -> String {
        jsonList(placeholder, as: "bigint", engine: engine)
    }

    /// The elements of the JSON array bound to `placeholder`, as a subquery; on PostgreSQL,
    /// which reads them as text, cast to `type`.
    private static func jsonList(_ placeholder: String, as type: String, engine: Engine) -> String {
        switch engine {
        case .sqlite: "SELECT value FROM json_each(\(placeholder))"
        case .postgres: "SELECT CAST(value AS \(type)) FROM json_array_elements_text(CAST(\(placeholder) AS json))"
        }
    }

    /// The larger of two values in one row (`max(a, b)` in SQLite, `greatest` in PostgreSQL,
    /// where `max` only aggregates).
    func greatest(_ first: String, _ second: String) -> String {
        switch engine {
        case .sqlite: "max(\(first), \(second))"
        case .postgres: "greatest(\(first), \(second))"
        }
    }

    /// A timestamp column's calendar day, as text `YYYY-MM-DD` (UTC).
    func dayOf(_ column: String) -> String {
        switch engine {
        case .sqlite: "date(\(column))"
        case .postgres: "to_char(\(column), 'YYYY-MM-DD')"
        }
    }

    /// The aggregate that joins a group's texts with `separator` (a character name such as
    /// `','` or `char(30)`) in `order`.
    func joinedTexts(_ column: String, separator: Character, orderedBy order: String) -> String {
        Self.joinedTexts(column, separator: separator, orderedBy: order, engine: engine)
    }

    static func joinedTexts(_ column: String, separator: Character, orderedBy order: String, engine: Engine) -> String {
        let code = separator.unicodeScalars.first.map { String($0.value) } ?? "44"
        switch engine {
        // SQLite's group_concat keeps the order of its input: rows are ordered before grouping
        // where the caller needs it.
        case .sqlite: return "group_concat(\(column), char(\(code)))"
        case .postgres: return "string_agg(\(column), chr(\(code)) ORDER BY \(order))"
        }
    }

    /// A subquery of the usernames in `placeholder`, bound to a JSON array of texts, compared
    /// ignoring case as the `username` column does on both engines (NOCASE, citext).
    func usernameList(_ placeholder: String) -> String {
        Self.jsonList(placeholder, as: "citext", engine: engine)
    }
}
