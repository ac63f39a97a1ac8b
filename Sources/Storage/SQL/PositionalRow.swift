import Foundation

/// A row, whichever engine stepped it: SQLite's (`SteppedRow`, or GRDB's `Row`) or
/// PostgreSQL's (`PostgresRow`). The records' `init(row:)` take any of them, so one decoder
/// serves every way of reading.
///
/// Code reads a column by its name, in one of two ways. A stored type declares its columns
/// once, as the cases of its `Columns` enumeration (`SQLColumn`); queries select them from that
/// declaration (`selection`) and `init(row:)` reads `column(.title)`, at the position the same
/// declaration gives, at no cost per column: the list and the reads cannot disagree. A column a
/// query names itself (`count(*) AS members`) is found by its name (`decode("members")`). A
/// value of the wrong type, or a column missing, is a thrown error.
protocol PositionalRow {
    var count: Int { get }
    func columnName(atIndex index: Int) -> String
    /// The position of the first column named `name` (ignoring case, as both engines do).
    func index(ofColumn name: String) -> Int?
    func isNull(atIndex index: Int) -> Bool
    func int64(atIndex index: Int) throws -> Int64
    func double(atIndex index: Int) throws -> Double
    func string(atIndex index: Int) throws -> String
    func data(atIndex index: Int) throws -> Data
    func bool(atIndex index: Int) throws -> Bool
    func date(atIndex index: Int) throws -> Date
}

/// A type a column decodes to.
protocol SQLDecodable {
    static func decode(_ row: some PositionalRow, atIndex index: Int) throws -> Self
}

extension Int64: SQLDecodable {
    static func decode(_ row: some PositionalRow, atIndex index: Int) throws -> Int64 { try row.int64(atIndex: index) }
}

extension Int: SQLDecodable {
    static func decode(_ row: some PositionalRow, atIndex index: Int) throws -> Int {
        let value = try row.int64(atIndex: index)
        guard let int = Int(exactly: value) else { throw SQLDecodingError.mismatch(index, "Int") }
        return int
    }
}

extension Double: SQLDecodable {
    static func decode(_ row: some PositionalRow, atIndex index: Int) throws -> Double { try row.double(atIndex: index) }
}

extension String: SQLDecodable {
    static func decode(_ row: some PositionalRow, atIndex index: Int) throws -> String { try row.string(atIndex: index) }
}

extension Bool: SQLDecodable {
    static func decode(_ row: some PositionalRow, atIndex index: Int) throws -> Bool { try row.bool(atIndex: index) }
}

extension Data: SQLDecodable {
    static func decode(_ row: some PositionalRow, atIndex index: Int) throws -> Data { try row.data(atIndex: index) }
}

extension Date: SQLDecodable {
    static func decode(_ row: some PositionalRow, atIndex index: Int) throws -> Date { try row.date(atIndex: index) }
}

extension Optional: SQLDecodable where Wrapped: SQLDecodable {
    static func decode(_ row: some PositionalRow, atIndex index: Int) throws -> Wrapped? {
        row.isNull(atIndex: index) ? nil : try Wrapped.decode(row, atIndex: index)
    }
}

/// A column that does not hold what the code expects: an error for the page, never a trap.
enum SQLDecodingError: Error, CustomStringConvertible {
    case mismatch(Int, String)
    case missingColumns([String])
    case unknownValue(String)

    var description: String {
        switch self {
        case .mismatch(let index, let type): "column \(index) is not a \(type)"
        case .missingColumns(let columns): "expected the columns \(columns)"
        case .unknownValue(let text): "unknown stored value \(text)"
        }
    }
}

extension PositionalRow {
    /// The first column named `name`, compared as both engines compare unquoted names.
    func index(ofColumn name: String) -> Int? {
        (0..<count).first { columnName(atIndex: $0).lowercased() == name.lowercased() }
    }

    func decode<Value: SQLDecodable>(atIndex index: Int) throws -> Value {
        try Value.decode(self, atIndex: index)
    }

    func decode<Value: SQLDecodable>(_ type: Value.Type, atIndex index: Int) throws -> Value {
        try Value.decode(self, atIndex: index)
    }

    func optionalDate(atIndex index: Int) throws -> Date? {
        isNull(atIndex: index) ? nil : try date(atIndex: index)
    }

    /// A stored enumeration; a value the code does not know is an error for the page.
    func decodeRawValue<Value: RawRepresentable>(atIndex index: Int) throws -> Value where Value.RawValue == String {
        let text = try string(atIndex: index)
        guard let value = Value(rawValue: text) else { throw SQLDecodingError.unknownValue(text) }
        return value
    }

    /// The column the query named `name` (`SELECT count(*) AS members`); a row without it is a
    /// thrown error.
    func decode<Value: SQLDecodable>(_ name: String, as type: Value.Type = Value.self) throws -> Value {
        try Value.decode(self, atIndex: index(named: name))
    }

    /// The stored enumeration in the column the query named `name`.
    func decodeRawValue<Value: RawRepresentable>(_ name: String, as type: Value.Type = Value.self) throws -> Value where Value.RawValue == String {
        try decodeRawValue(atIndex: index(named: name))
    }

    private func index(named name: String) throws -> Int {
        guard let index = index(ofColumn: name) else { throw SQLDecodingError.missingColumns([name]) }
        return index
    }

    /// The columns `Type` declares, from `offset` on (a joined row holds one table's columns
    /// after another's), to read by their names. A row too short is a thrown error; debug
    /// builds also check the names, which only a join that counts its offset wrong could break.
    /// Costs no more than a comparison: the names were listed once, in `Type.selection`.
    func columns<Type: SQLColumns>(of type: Type.Type, from offset: Int = 0) throws -> ColumnReader<Self, Type.Columns> {
        let names = Type.selection.names
        guard offset >= 0, count - offset >= names.count else { throw SQLDecodingError.missingColumns(names) }
        assert(names.indices.allSatisfy { columnName(atIndex: offset + $0).lowercased() == names[$0].lowercased() },
               "the row does not hold \(names) from \(offset)")
        return ColumnReader(row: self, offset: offset)
    }
}

/// Reads a row's columns by the cases of the type's `Columns`: `title = try column(.title)`.
struct ColumnReader<Row: PositionalRow, Column: SQLColumn> {
    let row: Row
    let offset: Int

    func callAsFunction<Value: SQLDecodable>(_ column: Column) throws -> Value {
        try Value.decode(row, atIndex: offset + column.rawValue)
    }

    /// A stored enumeration; a value the code does not know is an error for the page.
    func callAsFunction<Value: RawRepresentable>(_ column: Column) throws -> Value where Value.RawValue == String {
        try row.decodeRawValue(atIndex: offset + column.rawValue)
    }

    /// A choice that may be unset (NULL).
    func callAsFunction<Value: RawRepresentable>(_ column: Column) throws -> Value? where Value.RawValue == String {
        try row.isNull(atIndex: offset + column.rawValue) ? nil : row.decodeRawValue(atIndex: offset + column.rawValue)
    }

    /// The position just after these columns, where a joined row's next table begins.
    var end: Int { offset + Column.allCases.count }
}
