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

    /// Reads whose statements see one snapshot: a transaction on one of our connections, whose
    /// statements stay prepared from one read to the next. GRDB's reader gave each read a new
    /// wrapper, which prepared every statement again (a crew's page spent most of its time
    /// in SQLite's parser).
    func read<T>(_ timings: DatabaseTimings, _ body: (SQLConnection) throws -> T) throws -> T {
        guard let connections else {
            return try writer.read { db in try body(SQLConnection(SQLiteConnection(borrowing: db))) }
        }
        let start = DispatchTime.now().uptimeNanoseconds
        defer { timings.record(read: true, nanoseconds: DispatchTime.now().uptimeNanoseconds - start) }
        return try connections.read { connection in
            try connection.execute("BEGIN DEFERRED")
            // Every statement is reset after its rows (`SQLiteConnection.run`), so the end of a
            // read cannot fail on one still running; were it to fail, the snapshot goes anyway.
            defer { if (try? connection.execute("COMMIT")) == nil { _ = try? connection.execute("ROLLBACK") } }
            return try body(connection)
        }
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
