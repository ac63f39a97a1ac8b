import Foundation

/// A row read by position, whichever engine stepped it: SQLite's (`SteppedRow`, or GRDB's
/// `Row`) or PostgreSQL's (`PostgresRow`). The records' `init(row:)` take any of them, so one
/// decoder serves every way of reading.
///
/// Rows are read by position, a fraction of what a lookup by name costs per column. The
/// positions are the ones a query names: it selects a record's columns by their list
/// (`SQLColumns.selection`), never `*`, so the table's own order does not matter. A query
/// that puts other columns first is a programming error, which debug builds (and so the
/// tests) catch by name (`checkColumns`). A value of the wrong type is a thrown error.
protocol PositionalRow {
    var count: Int { get }
    func columnName(atIndex index: Int) -> String
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
    func decode<Value: SQLDecodable>(atIndex index: Int) throws -> Value {
        try Value.decode(self, atIndex: index)
    }

    func decode<Value: SQLDecodable>(_ type: Value.Type, atIndex index: Int) throws -> Value {
        try Value.decode(self, atIndex: index)
    }

    func optionalDate(atIndex index: Int) throws -> Date? {
        isNull(atIndex: index) ? nil : try date(atIndex: index)
    }

    /// Checks, in debug builds, that `columns` are the row's from `offset` (a joined row holds
    /// one table's columns after another's); a row too short is a thrown error.
    func checkColumns(_ columns: [String], from offset: Int = 0) throws {
        guard offset >= 0, count - offset >= columns.count else { throw SQLDecodingError.missingColumns(columns) }
        assert(columns.indices.allSatisfy { columnName(atIndex: offset + $0).lowercased() == columns[$0].lowercased() },
               "the row does not hold \(columns) from \(offset)")
    }

    /// A stored enumeration; a value the code does not know is an error for the page.
    func decodeRawValue<Value: RawRepresentable>(atIndex index: Int) throws -> Value where Value.RawValue == String {
        let text = try string(atIndex: index)
        guard let value = Value(rawValue: text) else { throw SQLDecodingError.unknownValue(text) }
        return value
    }
}
