/// The columns a stored type reads, declared once as the cases of an `Int` enumeration in the
/// order queries select them: a case is the column's name, its raw value its position. The
/// select lists (`SQLSelection`), the reads (`ColumnReader`) and the writes (`SQLRecord.stored`)
/// all come from it, so a column added anywhere moves every one of them alike.
///
///     enum Columns: Int, SQLColumn { case id, title, startsAt }
protocol SQLColumn: RawRepresentable, CaseIterable, Sendable where RawValue == Int {}

extension SQLColumn {
    /// The column's name in its table: the case's own.
    var name: String { String(describing: self) }

    /// A select list of what a query computes for each case (`count(*) AS members`), in the
    /// cases' order and named for them, so that a type reading them by place reads them right.
    static func selectList(_ expression: (Self) -> String) -> String {
        allCases.map { "\(expression($0)) AS \($0.name)" }.joined(separator: ", ")
    }
}

/// A type read from the columns `Columns` declares, in their order: queries select
/// `selection.bare` (or `selection.qualified` in a join) rather than `*`, so a row holds the
/// columns where `init(row:)` reads them whatever their order in the table, on either engine.
protocol SQLColumns {
    associatedtype Columns: SQLColumn
    /// `Columns` as select lists, built once (a list built per query cost a tenth of a crew list).
    static var selection: SQLSelection { get }
}

extension SQLColumns {
    /// The names of the columns `init(row:)` reads, in its order.
    static var columns: [String] { selection.names }
}

/// A type's columns as select lists: bare (`id, username, …`) and qualified by its table
/// (`users.id, users.username, …`), for `SELECT \(User.selection.qualified), … FROM users JOIN …`.
struct SQLSelection: Sendable {
    let names: [String]
    let bare: String
    let qualified: String
    /// Where `id` is, for writes, which leave it to the database.
    let idPosition: Int?

    init<Column: SQLColumn>(_ columns: Column.Type, table: String) {
        assert(Column.allCases.enumerated().allSatisfy { $0.offset == $0.element.rawValue }, "\(Column.self) numbers its cases itself")
        names = Column.allCases.map(\.name)
        bare = names.joined(separator: ", ")
        qualified = names.map { table + "." + $0 }.joined(separator: ", ")
        idPosition = names.firstIndex(of: "id")
    }

    /// How many columns a row holds for this selection: where a joined row's next table begins.
    var count: Int { names.count }
}

/// A model stored as one row of its table, read by its columns' names
/// (`init(row:startingAt:)`) and written column by column, on either engine.
protocol SQLRecord: StoredRecord, SQLColumns {
    static var databaseTableName: String { get }
    init(row: some PositionalRow, startingAt offset: Int) throws
    /// The value to store in `column` (an exhaustive `switch`, so a new column cannot be
    /// forgotten).
    func stored(_ column: Columns) -> (any SQLBindable)?
}

extension SQLRecord {
    /// The columns written on insert and update: all but `id`, which the database chooses.
    fileprivate static var writtenColumns: [Columns] { Columns.allCases.filter { $0.rawValue != selection.idPosition } }

    fileprivate var writtenValues: [(any SQLBindable)?] { Self.writtenColumns.map(stored) }
}

extension SQLConnection {
    /// Inserts `record` with an id the database chooses; returns the id.
    func insert<Record: SQLRecord>(_ record: Record) throws -> Int64 {
        let columns = Record.writtenColumns.map { Record.columns[$0.rawValue] }
        let sql = "INSERT INTO \(Record.databaseTableName) (\(columns.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ") RETURNING id"
        guard let id = try value(sql, record.writtenValues, as: Int64.self) else { throw StorageError.notFound }
        return id
    }

    /// Writes every column of `record` to its row; throws `notFound` when there is none.
    func update<Record: SQLRecord>(_ record: Record) throws {
        let id = try record.storedID
        let sql = "UPDATE \(Record.databaseTableName) SET " + Record.writtenColumns.map { "\(Record.columns[$0.rawValue]) = ?" }.joined(separator: ", ")
            + " WHERE id = ?"
        guard try execute(sql, record.writtenValues + [id]) == 1 else { throw StorageError.notFound }
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
