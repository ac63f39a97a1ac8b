import GRDB

/// A record whose integer primary key is set once it has been inserted or fetched.
public protocol StoredRecord {
    var id: Int64? { get }
}

extension StoredRecord {
    /// The primary key; throws for a record that was never saved, instead of crashing.
    public var storedID: Int64 {
        get throws(StorageError) {
            guard let id else { throw StorageError.notFound }
            return id
        }
    }
}

extension User: StoredRecord {}
extension Session: StoredRecord {}

extension Row {
    /// Rows of `Post`, `Photo` and `User` are read by position, a fraction of what a lookup by
    /// name costs per column. The table's own column order is the one `SELECT *` and
    /// `SELECT table.*, …` give; a query that puts other columns first is a programming error,
    /// which debug builds (and so the tests) catch by name. A row too short is a thrown error.
    /// A joined row holds one table's columns after another's, from `offset`.
    func checkColumns(_ columns: [String], from offset: Int = 0) throws {
        guard offset >= 0, count - offset >= columns.count else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "expected the columns \(columns)"))
        }
        assert(columnNames.dropFirst(offset).prefix(columns.count).elementsEqual(columns),
               "the row \(Array(columnNames)) does not hold \(columns) from \(offset)")
    }

    /// A stored enumeration; a value the code does not know is an error for the page.
    func decodeRawValue<Value: RawRepresentable>(atIndex index: Int) throws -> Value where Value.RawValue == String {
        let text: String = try decode(atIndex: index)
        guard let value = Value(rawValue: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unknown \(Value.self) \(text)"))
        }
        return value
    }
}
