import Dispatch
import GRDB
import Synchronization

/// The SQLite side of `AppDatabase`: GRDB's writer (and its migrations), and connections of
/// our own for the reads every page makes.
final class SQLiteStore: Sendable {
    let writer: any DatabaseWriter
    /// None for an in-memory database: it has no file to open twice.
    private let connections: ReadConnections?
    /// The writer's connection with its prepared statements, kept from one transaction to
    /// the next (GRDB runs one at a time).
    private let writerConnection = Mutex<SQLConnection?>(nil)
    /// The writes this process has made, each counted once it has committed (or rolled back):
    /// a row read before the count moved may have changed since.
    let writes = Atomic<UInt64>(0)

    init(writer: any DatabaseWriter, path: String?) {
        self.writer = writer
        connections = path.map(ReadConnections.init(path:))
    }

    deinit {
        // Our statements before GRDB's connection, as in `close()`.
        writerConnection.withLock { $0 = nil }
    }

    func readRows<T>(_ timings: DatabaseTimings, _ body: (SQLConnection) throws -> T) throws -> T {
        guard let connections else {
            return try writer.unsafeRead { db in try body(SQLConnection(SQLiteConnection(borrowing: db))) }
        }
        let start = DispatchTime.now().uptimeNanoseconds
        defer { timings.record(read: true, nanoseconds: DispatchTime.now().uptimeNanoseconds - start) }
        return try connections.read(body)
    }

    func write<T>(_ body: (SQLConnection) throws -> T) throws -> T {
        defer { writes.add(1, ordering: .sequentiallyConsistent) }
        return try writer.write { db in
            let connection = try writerConnection.withLock { cached in
                if let connection = cached, connection.borrows(db) { return connection }
                let connection = SQLConnection(try SQLiteConnection(borrowing: db))
                cached = connection
                return connection
            }
            return try body(connection)
        }
    }

    func close() throws {
        // Our statements first: SQLite does not close a connection that still has some.
        writerConnection.withLock { $0 = nil }
        connections?.close()
        if let pool = writer as? DatabasePool { try pool.close() }
        if let queue = writer as? DatabaseQueue { try queue.close() }
    }
}
