import Foundation
import GRDB
import Synchronization

/// The application database: one writer, concurrent readers, and every write as a single
/// transaction that keeps its own invariants.
public struct AppDatabase: Sendable {
    /// Writes go through the writer; in a pool it serialises them.
    let writer: any DatabaseWriter

    /// Reads run on a reader (concurrent with writes in WAL mode).
    var reader: any DatabaseReader { writer }
    /// Connections of our own for the reads every page makes; none for an in-memory database.
    private let connections: ReadConnections?
    /// Time spent in SQLite, for metrics.
    public let timings: DatabaseTimings

    /// Reads stepped directly on SQLite (`ReadConnections`): the session, feeds, lists and
    /// counts every page makes. Each statement reads its own snapshot, so a read whose
    /// statements must agree goes through `reader.read` instead.
    func readRows<T>(_ body: (SQLConnection) throws -> T) throws -> T {
        if let connections {
            let start = DispatchTime.now().uptimeNanoseconds
            defer { timings.record(read: true, nanoseconds: DispatchTime.now().uptimeNanoseconds - start) }
            return try connections.read(body)
        }
        return try reader.unsafeRead { db in try body(SQLConnection(SQLiteConnection(borrowing: db))) }
    }

    /// Wraps `writer` and applies every migration; `path` is the file's, to read it also
    /// through connections of our own.
    public init(_ writer: any DatabaseWriter, path: String? = nil, timings: DatabaseTimings = DatabaseTimings()) throws {
        self.writer = writer
        self.timings = timings
        try Migrations.migrator.migrate(writer)
        connections = path.map(ReadConnections.init(path:))
    }

    /// Opens (creating if needed) the SQLite file in `directory` in WAL mode with
    /// `synchronous=FULL`, so that a write reported as done survives a power cut.
    ///
    /// `walAutocheckpoint` is SQLite's: copy the WAL back into the database once it holds that
    /// many pages (1,000 by default); 0 leaves checkpoints to another process, as Litestream
    /// asks when it replicates the file (`script/replicate`).
    public static func open(directory: String, walAutocheckpoint: Int = 1_000) throws -> AppDatabase {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/moim.sqlite"
        let timings = DatabaseTimings()
        var configuration = configuration(timings)
        let pages = max(0, walAutocheckpoint)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = \(pages)") }
        return try AppDatabase(DatabasePool(path: path, configuration: configuration), path: path, timings: timings)
    }

    /// A private in-memory database, for tests and benchmarks.
    public static func inMemory() throws -> AppDatabase {
        let timings = DatabaseTimings()
        return try AppDatabase(DatabaseQueue(configuration: configuration(timings)), timings: timings)
    }

    /// Names of the migrations already applied, oldest first.
    public func appliedMigrations() throws -> [String] {
        try reader.read { db in try Migrations.migrator.appliedMigrations(db) }
    }

    public func close() throws {
        connections?.close()
        if let pool = writer as? DatabasePool { try pool.close() }
        if let queue = writer as? DatabaseQueue { try queue.close() }
    }

    private static func configuration(_ timings: DatabaseTimings) -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.maximumReaderCount = 8
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // Reads map the file instead of copying each page out of the kernel's cache.
            try db.execute(sql: "PRAGMA mmap_size = 268435456")
            // Statement time on the writer (its reads included) and on GRDB's readers.
            let isReader = db.configuration.readonly
            db.trace(options: .profile) { event in
                guard case .profile(_, let duration) = event, duration.isFinite, duration > 0 else { return }
                timings.record(read: isReader, nanoseconds: UInt64(min(duration, 3_600) * 1e9))
            }
        }
        return configuration
    }
}

/// Time spent in SQLite since the start, on readers and on the writer.
public final class DatabaseTimings: Sendable {
    private let readNanoseconds = Atomic<UInt64>(0)
    private let readCount = Atomic<UInt64>(0)
    private let writeNanoseconds = Atomic<UInt64>(0)
    private let writeCount = Atomic<UInt64>(0)

    public init() {}

    func record(read: Bool, nanoseconds: UInt64) {
        if read {
            readNanoseconds.wrappingAdd(nanoseconds, ordering: .relaxed)
            readCount.wrappingAdd(1, ordering: .relaxed)
        } else {
            writeNanoseconds.wrappingAdd(nanoseconds, ordering: .relaxed)
            writeCount.wrappingAdd(1, ordering: .relaxed)
        }
    }

    /// Seconds and operations (page reads, statements) so far.
    public var reads: (seconds: Double, count: UInt64) {
        (Double(readNanoseconds.load(ordering: .relaxed)) / 1e9, readCount.load(ordering: .relaxed))
    }

    public var writes: (seconds: Double, count: UInt64) {
        (Double(writeNanoseconds.load(ordering: .relaxed)) / 1e9, writeCount.load(ordering: .relaxed))
    }
}
