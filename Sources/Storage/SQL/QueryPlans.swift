import Foundation
import Synchronization

/// The statements a piece of code runs, written down inside
/// `SQLConnection.recordingStatements(into:)` (`QueryPlanTests` reads their plans).
final class StatementLog: Sendable {
    private let statements = Mutex<[(sql: String, values: [SQLValue])]>([])

    func add(_ sql: String, _ values: [SQLValue]) {
        statements.withLock { $0.append((sql, values)) }
    }

    var all: [(sql: String, values: [SQLValue])] { statements.withLock { $0 } }
}

extension SQLConnection {
    @TaskLocal static var statementLog: StatementLog?
    /// How many recordings run: none on a server, where a statement then pays one atomic load
    /// instead of a task-local lookup.
    static let recordings = Atomic<Int>(0)

    /// Runs `body`, writing every statement it runs into `log`.
    static func recordingStatements<T>(into log: StatementLog, _ body: () throws -> T) throws -> T {
        recordings.add(1, ordering: .relaxed)
        defer { recordings.subtract(1, ordering: .relaxed) }
        return try $statementLog.withValue(log, operation: body)
    }
}

/// One step of a query plan: SQLite's `EXPLAIN QUERY PLAN` row (its id, the step it is
/// part of, and its text), or one line of PostgreSQL's `EXPLAIN` (ids 0).
struct PlanStep: Sendable, Equatable {
    let id: Int64
    let parent: Int64
    let detail: String
}

extension AppDatabase {
    /// How the engine would run `sql` with `values`: SQLite's `EXPLAIN QUERY PLAN`
    /// (`SEARCH posts USING INTEGER PRIMARY KEY (rowid=?)`), or PostgreSQL's `EXPLAIN` with
    /// sequential scans ruled out, so that a `Seq Scan` left in the plan means no index can
    /// serve the statement, however few rows the test database holds.
    func queryPlan(_ sql: String, _ values: [SQLValue]) throws -> [PlanStep] {
        let arguments = values.map { $0 as (any SQLBindable)? }
        return try read { db in
            switch db.engine {
            case .sqlite:
                return try db.fetchAll("EXPLAIN QUERY PLAN " + sql, arguments) {
                    PlanStep(id: try $0.int64(atIndex: 0), parent: try $0.int64(atIndex: 1), detail: try $0.string(atIndex: 3))
                }
            case .postgres:
                try db.execute("SET LOCAL enable_seqscan = off")
                return try db.fetchAll("EXPLAIN " + sql, arguments) { PlanStep(id: 0, parent: 0, detail: try $0.string(atIndex: 0)) }
            }
        }
    }
}
