import Foundation

extension AppDatabase {
    /// Runs `body` unless another server sharing the database is running `task` right now
    /// (a PostgreSQL advisory lock, let go when `body` ends or that server dies); on SQLite,
    /// where this is the only server, always. Returns whether it ran. For work that must
    /// have one leader: the minute sweep, queuing digests and notices.
    @discardableResult
    public func asLeader(of task: String, _ body: () throws -> Void) throws -> Bool {
        guard case .postgres(let pool) = store else {
            try body()
            return true
        }
        let key = task.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        return try pool.whileHolding(lock: Int64(bitPattern: key), body)
    }
}
