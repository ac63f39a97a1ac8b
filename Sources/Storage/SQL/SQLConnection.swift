import Foundation
import GRDB

/// What `SQLConnection` asks of an engine's own connection: one protocol, two conformances
/// (`SQLiteConnection`, `PostgresConnection`), so that no statement is sent by a switch.
protocol EngineConnection: AnyObject {
    var engine: SQLConnection.Engine { get }
    /// Runs `sql` with `arguments`, calling `body` with each row; how many rows it changed or
    /// returned. With `planEachRun`, planned for these arguments (SQLite always does).
    func run(statement sql: String, arguments: [SQLValue], planEachRun: Bool, body: (SQLRow) throws -> Void) throws -> Int
    /// Runs the statements of `sql` one after another, with no arguments.
    func runScript(_ sql: String) throws
}

/// The database as the queries see it, whichever engine holds it: a connection inside a
/// read or a write transaction. Statements are written once, with SQLite's placeholders
/// (`?`, `?N`), in the SQL both engines agree on; where they differ, `engine` says which
/// text to run (DDL, search, a few functions). Used by one thread at a time.
final class SQLConnection: @unchecked Sendable {
    enum Engine: Sendable { case sqlite, postgres }

    private let connection: any EngineConnection
    /// What the write running on this connection changed, for the live updates (`Change`).
    var changes: Set<Change> = []

    /// Notes that the write running on this connection changed `change`.
    func changed(_ change: Change) {
        changes.insert(change)
    }

    init(_ connection: any EngineConnection) {
        self.connection = connection
    }

    /// True when this is GRDB's connection `database` (on SQLite).
    func borrows(_ database: Database) -> Bool {
        (connection as? SQLiteConnection)?.borrows(database) ?? false
    }

    var engine: Engine { connection.engine }

    /// Runs `sql` with `arguments`, calling `body` with each row; returns how many rows it
    /// changed (`INSERT`, `UPDATE`, `DELETE`) or returned. With `planEachRun`, PostgreSQL plans
    /// it for these arguments rather than once for any (SQLite always does).
    @discardableResult
    func run(_ sql: String, _ arguments: [(any SQLBindable)?] = [], planEachRun: Bool = false, _ body: (SQLRow) throws -> Void = { _ in }) throws -> Int {
        let values = SQLValue.list(arguments)
        if Self.recordings.load(ordering: .relaxed) > 0, let log = Self.statementLog { log.add(sql, values) }
        return try connection.run(statement: sql, arguments: values, planEachRun: planEachRun, body: body)
    }

    /// Runs the statements of `sql` one after another, with no arguments: a migration's text,
    /// as `SchemaDialect` writes it.
    func runScript(_ sql: String) throws {
        try connection.runScript(sql)
    }

    /// Runs `sql` and returns how many rows it changed.
    @discardableResult
    func execute(_ sql: String, _ arguments: [(any SQLBindable)?] = []) throws -> Int {
        try run(sql, arguments)
    }

    /// The rows of `sql`, each decoded by `decode`.
    func fetchAll<T>(_ sql: String, _ arguments: [(any SQLBindable)?] = [], planEachRun: Bool = false, _ decode: (SQLRow) throws -> T) throws -> [T] {
        var values: [T] = []
        try run(sql, arguments, planEachRun: planEachRun) { values.append(try decode($0)) }
        return values
    }

    /// The first row of `sql` decoded, or nil when there is none.
    func fetchOne<T>(_ sql: String, _ arguments: [(any SQLBindable)?] = [], _ decode: (SQLRow) throws -> T) throws -> T? {
        var value: T?
        try run(sql, arguments) { row in
            if value == nil { value = try decode(row) }
        }
        return value
    }

    /// `?, ?, ?` for `count` arguments (at least one, so that `IN (…)` stays valid).
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: max(1, count)).joined(separator: ", ")
    }

    /// Ids as one argument for `idList`.
    static func jsonArray(_ ids: some Collection<Int64>) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    /// Runs `body`, turning a refusal by one of the schema's rules (CHECK, UNIQUE, a foreign
    /// key) into `refusal`, e.g. `.full` when a capacity's CHECK refuses one more.
    @discardableResult
    func refusing<T>(as refusal: StorageError, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch where Self.isConstraintViolation(error) {
            throw refusal
        }
    }

    /// A refusal by a CHECK, UNIQUE, NOT NULL or foreign-key rule, on either engine.
    static func isConstraintViolation(_ error: any Error) -> Bool {
        switch error {
        case let error as DatabaseError: error.resultCode == .SQLITE_CONSTRAINT
        case PostgresError.query(let state, _, _): state.hasPrefix("23")
        default: false
        }
    }

    /// The first column of the first row, or nil when there is no row (or it is NULL).
    func value<T: SQLDecodable>(_ sql: String, _ arguments: [(any SQLBindable)?] = [], as type: T.Type = T.self) throws -> T? {
        try fetchOne(sql, arguments) { try $0.decode(T?.self, atIndex: 0) } ?? nil
    }

    /// The first column of every row.
    func values<T: SQLDecodable>(_ sql: String, _ arguments: [(any SQLBindable)?] = [], as type: T.Type = T.self) throws -> [T] {
        try fetchAll(sql, arguments) { try $0.decode(T.self, atIndex: 0) }
    }
}
