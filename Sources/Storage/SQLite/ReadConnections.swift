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
    private let idle = Mutex<[SQLConnection]>([])

    init(path: String) {
        self.path = path
    }

    func read<T>(_ body: (SQLConnection) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? SQLConnection(SQLiteConnection(path: path))
        defer { idle.withLock { $0.append(connection) } }
        return try body(connection)
    }

    /// Closes the idle connections (those in use close when their read ends).
    func close() {
        idle.withLock { $0.removeAll() }
    }
}
