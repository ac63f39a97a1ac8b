import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// One SQLite connection and its prepared statements, stepped directly; used by one thread
/// at a time. Its own (read-only, `ReadConnections`), or GRDB's writer borrowed for a
/// transaction GRDB began.
final class SQLiteConnection: @unchecked Sendable {
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

    /// Runs the statements of `sql` one after another, with no arguments (a migration's text).
    func runScript(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard status == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: status), message: message.map { String(cString: $0) } ?? "", sql: sql)
        }
    }

    /// True when this wraps `database`'s own connection.
    func borrows(_ database: Database) -> Bool {
        !owned && database.sqliteConnection == handle
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        if owned { sqlite3_close_v2(handle) }
    }

    /// Runs `sql` with `arguments` bound to `?1`, `?2`…, calling `body` with each row;
    /// returns how many rows it changed (for `INSERT`, `UPDATE`, `DELETE`) or returned.
    @discardableResult
    func run(_ sql: String, _ arguments: [SQLValue], _ body: (SteppedRow) throws -> Void = { _ in }) throws -> Int {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, argument) in arguments.enumerated() {
            try bind(argument, to: statement, at: CInt(offset + 1))
        }
        let row = SteppedRow(statement: statement, count: Int(sqlite3_column_count(statement)))
        var rows = 0
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW:
                rows += 1
                try body(row)
            case SQLITE_DONE:
                return sqlite3_stmt_readonly(statement) != 0 || sqlite3_column_count(statement) > 0 ? rows : Int(sqlite3_changes(handle))
            case let status:
                throw error(status, sql)
            }
        }
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status, sql) }
        statements[sql] = statement
        return statement
    }

    private func bind(_ value: SQLValue, to statement: OpaquePointer, at index: CInt) throws {
        let status = switch value {
        case .null: sqlite3_bind_null(statement, index)
        case .integer(let number): sqlite3_bind_int64(statement, index, number)
        case .bool(let flag): sqlite3_bind_int64(statement, index, flag ? 1 : 0)
        case .real(let number): sqlite3_bind_double(statement, index, number)
        case .text(let text): sqlite3_bind_text(statement, index, text, -1, sqliteTransient)
        // GRDB's own format, so that dates written either way compare as text.
        case .date(let date): sqlite3_bind_text(statement, index, String.fromDatabaseValue(date.databaseValue) ?? "", -1, sqliteTransient)
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

extension SQLiteConnection: EngineConnection {
    var engine: SQLConnection.Engine { .sqlite }

    /// SQLite plans every run for its arguments: `planEachRun` changes nothing.
    func run(statement sql: String, arguments: [SQLValue], planEachRun: Bool, body: (SQLRow) throws -> Void) throws -> Int {
        try run(sql, arguments) { try body(.sqlite($0)) }
    }
}

/// SQLite copies what is bound (`SQLITE_TRANSIENT`), as the Swift value lives only for the call.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// The row a statement is on while SQLite steps it; valid only inside `forEachRow`'s body.
struct SteppedRow: PositionalRow {
    fileprivate let statement: OpaquePointer
    /// The statement's number of columns, asked once rather than before every value.
    let count: Int

    func columnName(atIndex index: Int) -> String {
        sqlite3_column_name(statement, CInt(index)).map { String(cString: $0) } ?? ""
    }

    /// Compares the names SQLite holds as C strings, without making a Swift string of each.
    func index(ofColumn name: String) -> Int? {
        name.withCString { wanted in
            (0..<count).first { index in sqlite3_column_name(statement, CInt(index)).map { sqlite3_stricmp($0, wanted) == 0 } ?? false }
        }
    }

    func isNull(atIndex index: Int) -> Bool {
        !(0..<count).contains(index) || sqlite3_column_type(statement, CInt(index)) == SQLITE_NULL
    }

    func int64(atIndex index: Int) throws -> Int64 {
        try column(index, "Int64")
        return sqlite3_column_int64(statement, CInt(index))
    }

    func double(atIndex index: Int) throws -> Double {
        try column(index, "Double")
        return sqlite3_column_double(statement, CInt(index))
    }

    func string(atIndex index: Int) throws -> String {
        try column(index, "String")
        guard let text = sqlite3_column_text(statement, CInt(index)) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, CInt(index)))), as: UTF8.self)
    }

    func data(atIndex index: Int) throws -> Data {
        try column(index, "Data")
        guard let bytes = sqlite3_column_blob(statement, CInt(index)) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, CInt(index))))
    }

    func bool(atIndex index: Int) throws -> Bool {
        try int64(atIndex: index) != 0
    }

    /// GRDB's storage format, `yyyy-MM-dd HH:mm:ss.SSS` in UTC, read without a calendar; any
    /// other form GRDB reads.
    func date(atIndex index: Int) throws -> Date {
        if try column(index, "Date") == SQLITE_TEXT, sqlite3_column_bytes(statement, CInt(index)) == 23,
           let text = sqlite3_column_text(statement, CInt(index)),
           let date = StoredDate.parse(UnsafeBufferPointer(start: text, count: 23)) {
            return date
        }
        guard let date = Date.fromDatabaseValue(DatabaseValue(sqliteStatement: statement, index: CInt(index))) else {
            throw SQLDecodingError.mismatch(index, "Date")
        }
        return date
    }

    /// The column as SQLite holds it (its storage class), for copying rows whatever they hold.
    func value(atIndex index: Int) throws -> SQLValue {
        switch isNull(atIndex: index) ? SQLITE_NULL : sqlite3_column_type(statement, CInt(index)) {
        case SQLITE_NULL: .null
        case SQLITE_INTEGER: .integer(try int64(atIndex: index))
        case SQLITE_FLOAT: .real(try double(atIndex: index))
        case SQLITE_BLOB: .blob(try data(atIndex: index))
        default: .text(try string(atIndex: index))
        }
    }

    /// The storage class of a column that exists and is not NULL.
    @discardableResult
    private func column(_ index: Int, _ type: String) throws -> CInt {
        let storage = (0..<count).contains(index) ? sqlite3_column_type(statement, CInt(index)) : SQLITE_NULL
        guard storage != SQLITE_NULL else { throw SQLDecodingError.mismatch(index, type) }
        return storage
    }
}

/// GRDB's rows, for the reads and writes that still go through GRDB's connections.
extension Row: PositionalRow {
    func columnName(atIndex index: Int) -> String {
        Array(columnNames)[index]
    }

    func index(ofColumn name: String) -> Int? {
        Array(columnNames).firstIndex { $0.lowercased() == name.lowercased() }
    }

    func isNull(atIndex index: Int) -> Bool {
        !(0..<count).contains(index) || hasNull(atIndex: index)
    }

    func int64(atIndex index: Int) throws -> Int64 { try value(index, "Int64") }
    func double(atIndex index: Int) throws -> Double { try value(index, "Double") }
    func string(atIndex index: Int) throws -> String { try value(index, "String") }
    func data(atIndex index: Int) throws -> Data { try value(index, "Data") }
    func bool(atIndex index: Int) throws -> Bool { try value(index, "Bool") }
    func date(atIndex index: Int) throws -> Date { try value(index, "Date") }

    private func value<Value: DatabaseValueConvertible>(_ index: Int, _ type: String) throws -> Value {
        guard !isNull(atIndex: index), let value = Value.fromDatabaseValue(self[index] as DatabaseValue) else {
            throw SQLDecodingError.mismatch(index, type)
        }
        return value
    }
}
