/// A type read from the columns it names, in the order it names them: queries select
/// `selection.bare` (or `selection.qualified` in a join) rather than `*`, so a row holds the
/// columns where `init(row:)` reads them whatever their order in the table, on either engine.
protocol SQLColumns {
    /// The columns `init(row:)` reads, in its order.
    static var columns: [String] { get }
    /// `columns` as select lists, built once (a list built per query cost a tenth of a crew list).
    static var selection: SQLSelection { get }
}

/// A type's columns as select lists: bare (`id, username, …`) and qualified by its table
/// (`users.id, users.username, …`), for `SELECT \(User.selection.qualified), … FROM users JOIN …`.
struct SQLSelection: Sendable {
    let bare: String
    let qualified: String

    init(_ columns: [String], table: String) {
        bare = columns.joined(separator: ", ")
        qualified = columns.map { table + "." + $0 }.joined(separator: ", ")
    }
}

/// A model stored as one row of its table, read by position (`init(row:startingAt:)`) from
/// the columns it selects, and written column by column, on either engine.
protocol SQLRecord: StoredRecord, SQLColumns {
    static var databaseTableName: String { get }
    init(row: some PositionalRow, startingAt offset: Int) throws
    /// The values of `columns` after `id`, in their order.
    var columnValues: [(any SQLBindable)?] { get }
}

extension SQLConnection {
    /// Inserts `record` with an id the database chooses; returns the id.
    func insert<Record: SQLRecord>(_ record: Record) throws -> Int64 {
        let columns = Record.columns.dropFirst()
        let sql = "INSERT INTO \(Record.databaseTableName) (\(columns.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ") RETURNING id"
        guard let id = try value(sql, record.columnValues, as: Int64.self) else { throw StorageError.notFound }
        return id
    }

    /// Writes every column of `record` to its row; throws `notFound` when there is none.
    func update<Record: SQLRecord>(_ record: Record) throws {
        let id = try record.storedID
        let sql = "UPDATE \(Record.databaseTableName) SET " + Record.columns.dropFirst().map { "\($0) = ?" }.joined(separator: ", ")
            + " WHERE id = ?"
        guard try execute(sql, record.columnValues + [id]) == 1 else { throw StorageError.notFound }
    }

    /// The record with this id, or nil.
    func record<Record: SQLRecord>(_ type: Record.Type, id: Int64?) throws -> Record? {
        guard let id else { return nil }
        return try fetchOne("SELECT \(Record.selection.bare) FROM \(Record.databaseTableName) WHERE id = ?", [id]) { try Record(row: $0, startingAt: 0) }
    }

    /// Deletes `record`'s row (what refers to it goes as the foreign keys say).
    func delete<Record: SQLRecord>(_ record: Record) throws {
        try execute("DELETE FROM \(Record.databaseTableName) WHERE id = ?", [record.storedID])
    }

    /// The records with these ids, in no particular order.
    func records<Record: SQLRecord>(_ type: Record.Type, ids: some Collection<Int64>) throws -> [Record] {
        guard !ids.isEmpty else { return [] }
        return try records(type, "SELECT \(Record.selection.bare) FROM \(Record.databaseTableName) WHERE id IN (\(idList("?")))", [SQLConnection.jsonArray(ids)])
    }

    /// True when a record with this id exists.
    func exists<Record: SQLRecord>(_ type: Record.Type, id: Int64?) throws -> Bool {
        guard let id else { return false }
        return try value("SELECT EXISTS (SELECT 1 FROM \(Record.databaseTableName) WHERE id = ?)", [id]) ?? false
    }

    /// The records `sql` selects (`SELECT \(Record.selection.bare) FROM …`).
    func records<Record: SQLRecord>(_ type: Record.Type, _ sql: String, _ arguments: [(any SQLBindable)?] = []) throws -> [Record] {
        try fetchAll(sql, arguments) { try Record(row: $0, startingAt: 0) }
    }

    /// The first record `sql` selects, or nil.
    func record<Record: SQLRecord>(_ type: Record.Type, _ sql: String, _ arguments: [(any SQLBindable)?] = []) throws -> Record? {
        try fetchOne(sql, arguments) { try Record(row: $0, startingAt: 0) }
    }
}
