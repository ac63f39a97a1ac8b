import Foundation
import Synchronization

/// The statements a piece of code runs, written down while `SQLConnection.$statementLog` is
/// bound (`QueryPlanTests` reads their plans); nil, and nothing written, on a server.
final class StatementLog: Sendable {
    private let statements = Mutex<[(sql: String, values: [SQLValue])]>([])

    func add(_ sql: String, _ values: [SQLValue]) {
        statements.withLock { $0.append((sql, values)) }
    }

    var all: [(sql: String, values: [SQLValue])] { statements.withLock { $0 } }
}

extension SQLConnection {
    @TaskLocal static var statementLog: StatementLog?
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
