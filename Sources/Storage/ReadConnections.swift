import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// Read-only SQLite connections for the reads every page makes (the session, feeds), taken
/// from a small pool under a mutex and stepped directly. Through GRDB's pool the same read
/// cost a dispatch-queue hop, `PRAGMA schema_version`, and a dictionary of column names built
/// per statement: together a third of the signed-in feed's time. Rows are decoded by
/// position (`PositionalRow`), by the same `init(row:)` that decodes GRDB's rows.
///
/// Each statement reads one snapshot of its own (there is no transaction around a `read`): a
/// read whose statements must agree has to stay on GRDB's `reader.read`.
final class ReadConnections: Sendable {
    private let path: String
    private let idle = Mutex<[ReadConnection]>([])

    init(path: String) {
        self.path = path
    }

    func read<T>(_ body: (ReadConnection) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? ReadConnection(path: path)
        defer { idle.withLock { $0.append(connection) } }
        return try body(connection)
    }

    /// Closes the idle connections (those in use close when their read ends).
    func close() {
        idle.withLock { $0.removeAll() }
    }
}

/// One SQLite connection and its prepared statements; used by one thread at a time.
final class ReadConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    private let owned: Bool
    private var statements: [String: OpaquePointer] = [:]

    /// Opens `path` read-only (the file is in WAL mode, kept by GRDB's writer).
    init(path: String) throws {
        var handle: OpaquePointer?
        let status = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let handle else {
            if let handle { sqlite3_close_v2(handle) }
            throw DatabaseError(resultCode: ResultCode(rawValue: status), message: "cannot open \(path) to read")
        }
        self.handle = handle
        owned = true
        sqlite3_busy_timeout(handle, 5000)
        // No memory map: each connection would map the file on its own, and the pages a search
        // scans then count once per connection in the process's resident size (110 MB peak, not
        // 101 MB, in script/bench). Reading through SQLite's page cache measured as fast.
    }

    /// Borrows a GRDB connection (an in-memory database has no file to open twice).
    init(borrowing database: Database) throws {
        guard let handle = database.sqliteConnection else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "connection is closed") }
        self.handle = handle
        owned = false
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        if owned { sqlite3_close_v2(handle) }
    }

    /// Runs `sql` with `arguments` bound to `?1`, `?2`…, and calls `body` with each row.
    func forEachRow(
        _ sql: String, _ arguments: [(any DatabaseValueConvertible)?] = [], _ body: (SteppedRow) throws -> Void
    ) throws {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, argument) in arguments.enumerated() {
            try bind(argument?.databaseValue ?? .null, to: statement, at: CInt(offset + 1))
        }
        let row = SteppedRow(statement: statement)
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: try body(row)
            case SQLITE_DONE: return
            case let status: throw error(status, sql)
            }
        }
    }

    /// The rows of `sql`, each decoded by `decode`.
    func fetchAll<T>(
        _ sql: String, _ arguments: [(any DatabaseValueConvertible)?] = [], _ decode: (SteppedRow) throws -> T
    ) throws -> [T] {
        var values: [T] = []
        try forEachRow(sql, arguments) { values.append(try decode($0)) }
        return values
    }

    /// The first row of `sql` decoded, or nil when there is none.
    func fetchOne<T>(
        _ sql: String, _ arguments: [(any DatabaseValueConvertible)?] = [], _ decode: (SteppedRow) throws -> T
    ) throws -> T? {
        var value: T?
        try forEachRow(sql, arguments) { row in
            if value == nil { value = try decode(row) }
        }
        return value
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status, sql) }
        statements[sql] = statement
        return statement
    }

    private func bind(_ value: DatabaseValue, to statement: OpaquePointer, at index: CInt) throws {
        let status = switch value.storage {
        case .null: sqlite3_bind_null(statement, index)
        case .int64(let number): sqlite3_bind_int64(statement, index, number)
        case .double(let number): sqlite3_bind_double(statement, index, number)
        case .string(let text): sqlite3_bind_text(statement, index, text, -1, sqliteTransient)
        case .blob(let data): data.withUnsafeBytes { bytes in
                sqlite3_bind_blob64(statement, index, bytes.baseAddress, sqlite3_uint64(bytes.count), sqliteTransient)
            }
        }
        guard status == SQLITE_OK else { throw error(status, "binding ?\(index)") }
    }

    private func error(_ status: CInt, _ sql: String) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}

/// SQLite copies what is bound (`SQLITE_TRANSIENT`), as the Swift value lives only for the call.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// The row a statement is on while SQLite steps it; valid only inside `forEachRow`'s body.
struct SteppedRow: PositionalRow {
    fileprivate let statement: OpaquePointer

    var count: Int { Int(sqlite3_column_count(statement)) }

    func columnName(atIndex index: Int) -> String {
        sqlite3_column_name(statement, CInt(index)).map { String(cString: $0) } ?? ""
    }

    func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ type: Value.Type, atIndex index: Int) throws -> Value {
        guard index >= 0, index < count, let value = Value.fromStatement(statement, atUncheckedIndex: CInt(index)) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: [], debugDescription: "column \(index) (\(columnName(atIndex: index))) is not a \(Value.self)"))
        }
        return value
    }

    func date(atIndex index: Int) throws -> Date {
        if let date = storedDate(index) { return date }
        return try decode(atIndex: index)
    }

    func optionalDate(atIndex index: Int) throws -> Date? {
        if let date = storedDate(index) { return date }
        return try decode(atIndex: index)
    }

    /// GRDB's storage format, `yyyy-MM-dd HH:mm:ss.SSS` in UTC, read without a calendar;
    /// nil for anything else (which GRDB then reads).
    private func storedDate(_ index: Int) -> Date? {
        guard index >= 0, index < count, sqlite3_column_type(statement, CInt(index)) == SQLITE_TEXT,
              let text = sqlite3_column_text(statement, CInt(index)),
              sqlite3_column_bytes(statement, CInt(index)) == 23
        else { return nil }
        return StoredDate.parse(UnsafeBufferPointer(start: text, count: 23))
    }
}

/// Columns read by position: GRDB's `Row`, or a `SteppedRow`. The records' `init(row:)`
/// take either, so one decoder serves both ways of reading.
protocol PositionalRow {
    var count: Int { get }
    func columnName(atIndex index: Int) -> String
    func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ type: Value.Type, atIndex index: Int) throws -> Value
    func date(atIndex index: Int) throws -> Date
    func optionalDate(atIndex index: Int) throws -> Date?
}

extension Row: PositionalRow {
    func columnName(atIndex index: Int) -> String {
        Array(columnNames)[index]
    }

    func date(atIndex index: Int) throws -> Date {
        try decode(atIndex: index)
    }

    func optionalDate(atIndex index: Int) throws -> Date? {
        try decode(atIndex: index)
    }
}

extension PositionalRow {
    func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(atIndex index: Int) throws -> Value {
        try decode(Value.self, atIndex: index)
    }

    /// Rows are read by position, a fraction of what a lookup by name costs per column. The
    /// table's own column order is the one `SELECT *` and `SELECT table.*, …` give; a query
    /// that puts other columns first is a programming error, which debug builds (and so the
    /// tests) catch by name. A row too short is a thrown error. A joined row holds one table's
    /// columns after another's, from `offset`.
    func checkColumns(_ columns: [String], from offset: Int = 0) throws {
        guard offset >= 0, count - offset >= columns.count else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "expected the columns \(columns)"))
        }
        assert(columns.indices.allSatisfy { columnName(atIndex: offset + $0) == columns[$0] },
               "the row does not hold \(columns) from \(offset)")
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

/// Dates as GRDB stores them: `2026-11-24 09:30:00.250`, UTC.
enum StoredDate {
    /// The date, or nil when `text` is not exactly that form with a valid day and time.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Date? {
        guard text.count == 23, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"), text[10] == UInt8(ascii: " "),
              text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"), text[19] == UInt8(ascii: "."),
              let year = number(text, 0, 4), let month = number(text, 5, 2), let day = number(text, 8, 2),
              let hour = number(text, 11, 2), let minute = number(text, 14, 2), let second = number(text, 17, 2),
              let millisecond = number(text, 20, 3),
              (1...12).contains(month), (1...daysIn(month, of: year)).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        // Whole days from the reference date, then the time of day with its fraction, summed in
        // the order Foundation's calendar sums them, so both round to the same `Date`.
        let days = daysFromCivil(year: year, month: month, day: day) - 11_323
        let timeOfDay = Double(hour * 3_600 + minute * 60 + second) + Double(millisecond * 1_000_000) / 1_000_000_000
        return Date(timeIntervalSinceReferenceDate: Double(days * 86_400) + timeOfDay)
    }

    /// The decimal number of `length` ASCII digits from `start`, or nil.
    private static func number(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ length: Int) -> Int? {
        var value = 0
        for byte in text[start..<start + length] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`); the year has four digits, so nothing here can overflow.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
