import Foundation
import GRDB
import Synchronization

/// The application database: every write as a single transaction that keeps its own
/// invariants, reads beside it. On SQLite (the default) one writer and concurrent readers on
/// a file; on PostgreSQL a pool of connections, and several servers may share the database.
public struct AppDatabase: Sendable {
    let store: Store
    /// Time spent in the database, for metrics.
    public let timings: DatabaseTimings
    /// How the changes of committed writes reach listeners (`listen`).
    let signal: any ChangeSignal
    /// Posts and comments decoded once, for feeds and threads.
    let kept = KeptRows()
    /// Standbys that take the reads of pages that only read; nil: every read on the primary.
    let replicas: Replicas?

    enum Store: Sendable {
        case sqlite(SQLiteStore)
        case postgres(PostgresPool)
    }

    var engine: SQLConnection.Engine {
        switch store {
        case .sqlite: .sqlite
        case .postgres: .postgres
        }
    }

    /// Reads that need no transaction: the session, feeds, lists and counts every page
    /// makes. Each statement reads its own snapshot, so a read whose statements must agree
    /// goes through `read` instead.
    func readRows<T>(_ body: (SQLConnection) throws -> T) throws -> T {
        switch store {
        case .sqlite(let sqlite):
            return try sqlite.readRows(timings, body)
        case .postgres(let primary):
            let start = DispatchTime.now().uptimeNanoseconds
            defer { timings.record(read: true, nanoseconds: DispatchTime.now().uptimeNanoseconds - start) }
            return try Self.reachable {
                try onReplica(else: primary) { pool in try pool.withConnection { try body(SQLConnection($0)) } }
            }
        }
    }

    /// `read` on a replica when the request's scope allows it and one is fresh enough, else on
    /// `primary`; a read the replica could not answer (down, or cancelled by its replay) is
    /// read again on the primary.
    private func onReplica<T>(else primary: PostgresPool, _ read: (PostgresPool) throws -> T) throws -> T {
        guard let replicas, let scope = ReadScope.current, scope.allowsReplica, scope.wrote == nil,
              let replica = replicas.pool(after: scope.mustSee)
        else { return try read(primary) }
        do {
            let value = try read(replica)
            replicas.reads.add(1, ordering: .relaxed)
            return value
        } catch let error as PostgresError where error.isConnection || error.isRetryable {
            replicas.failed(replica)
            return try read(primary)
        }
    }

    /// `body`, with a connection that failed (PostgreSQL restarting) as `StorageError.unavailable`,
    /// and so a transaction that kept losing races (a rush, or transactions stuck waiting for a
    /// synchronous standby that is gone): the page says "try again shortly", not "error".
    private static func reachable<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch PostgresError.connection(let message) {
            FileHandle.standardError.write(Data("PostgreSQL unavailable: \(message.split(whereSeparator: \.isNewline).joined(separator: " "))\n".utf8))
            throw StorageError.unavailable
        } catch let error as PostgresError where error.isRetryable {
            FileHandle.standardError.write(Data("PostgreSQL busy: a transaction lost every retry: \(error)\n".utf8))
            throw StorageError.unavailable
        }
    }

    /// Sizes the caches of decoded rows and sessions to their parts of `budget`.
    public func keepInMemory(_ budget: CacheBudget) {
        kept.resize(budget)
    }

    /// Reads whose statements see one snapshot of the database.
    func read<T>(_ body: (SQLConnection) throws -> T) throws -> T {
        switch store {
        case .sqlite(let sqlite):
            return try sqlite.read(timings, body)
        case .postgres(let primary):
            return try Self.reachable {
                try onReplica(else: primary) { pool in
                    try pool.withConnection { connection in
                        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                        defer { try? connection.execute("COMMIT") }
                        return try body(SQLConnection(connection))
                    }
                }
            }
        }
    }

    /// One transaction that behaves as if it ran alone: SQLite's single writer, or
    /// PostgreSQL's `SERIALIZABLE` run again when it loses a race. A rule of the schema that
    /// refuses the write is `StorageError.rejected` on both engines.
    @discardableResult
    func write<T>(_ body: (SQLConnection) throws -> T) throws -> T {
        do {
            switch store {
            case .sqlite(let sqlite):
                var changes: Set<Change> = []
                let value = try sqlite.write { db in
                    db.changes = []
                    let value = try body(db)
                    changes = db.changes
                    return value
                }
                signal.committed(changes)
                return value
            case .postgres(let pool):
                let start = DispatchTime.now().uptimeNanoseconds
                defer { timings.record(read: false, nanoseconds: DispatchTime.now().uptimeNanoseconds - start) }
                // With replicas, a request's write tells where the primary's log stands after its
                // commit, asked on the same connection: a replica that has replayed this far shows it.
                let scope = replicas == nil ? nil : ReadScope.current
                var position: WALPosition?
                let askPosition: ((PostgresConnection) -> Void)? = scope == nil ? nil : { connection in
                    position = (try? connection.text("SELECT pg_current_wal_lsn()::text")).flatMap { $0 }.flatMap(WALPosition.init(postgres:))
                }
                return try Self.reachable {
                    let value = try pool.transaction({ connection in
                        let db = SQLConnection(connection)
                        let value = try body(db)
                        try signal.send(db.changes, in: db)
                        return value
                    }, afterCommit: askPosition)
                    kept.writes.add(1, ordering: .sequentiallyConsistent)
                    // Unknown (the primary went away meanwhile): as far as can be, so that the reader stays on the primary.
                    scope?.wrote = position ?? WALPosition(.max)
                    return value
                }
            }
        } catch where SQLConnection.isConstraintViolation(error) {
            throw StorageError.rejected
        }
    }

    /// Wraps `writer` and applies every migration; `path` is the file's, to read it also
    /// through connections of our own.
    init(_ writer: any DatabaseWriter, path: String? = nil, timings: DatabaseTimings = DatabaseTimings()) throws {
        self.timings = timings
        try Migrations.migrator.migrate(writer)
        store = .sqlite(SQLiteStore(writer: writer, path: path))
        signal = InProcessSignal()
        replicas = nil
    }

    /// Connects to the PostgreSQL database at `url` with at most `connections` at once, and
    /// brings its schema up to date (on a connection of its own that waits as long as a
    /// migration takes); each later command waits at most `answerTimeout` milliseconds.
    ///
    /// `replicas` are hot standbys of it (`pg_basebackup -R`) for the reads of pages that only
    /// read, each with up to `connections` too, used while within `lagBound` seconds of the
    /// primary (`ReadScope`).
    public static func open(
        postgres url: String, connections: Int = 8, answerTimeout: Int? = nil, replicas: [String] = [], lagBound: Double = 5
    ) throws -> AppDatabase {
        try PostgresPool(url: url, size: 1).withConnection { try PostgresMigrations.migrate($0) }
        let timeout = answerTimeout.map { Int32(clamping: $0) }
        let pool = PostgresPool(url: url, size: connections, answerTimeout: timeout)
        var standbys: Replicas?
        if !replicas.isEmpty {
            standbys = Replicas(urls: replicas, primary: url, connections: connections, answerTimeout: timeout, lagBound: lagBound)
            standbys?.watch()
        }
        return AppDatabase(store: .postgres(pool), timings: DatabaseTimings(), signal: PostgresSignal(url: url), replicas: standbys)
    }

    private init(store: Store, timings: DatabaseTimings, signal: any ChangeSignal, replicas: Replicas?) {
        self.store = store
        self.timings = timings
        self.signal = signal
        self.replicas = replicas
    }

    /// Whether some reads may go to replicas, so that pages must say which (`scoped`).
    public var hasReplicas: Bool { replicas != nil }

    /// With replicas, for metrics: the reads they answered and failed so far, and how many of
    /// them take reads now (up and within the lag bound).
    public var replicaStatus: (reads: UInt64, failures: UInt64, fresh: Int, configured: Int)? {
        replicas.map { replicas in
            (replicas.reads.load(ordering: .relaxed), replicas.failures.load(ordering: .relaxed),
             replicas.members.filter { $0.fresh.load(ordering: .relaxed) }.count, replicas.members.count)
        }
    }

    /// Runs one request's `body`: its reads on a fresh replica if `replicaAllowed` (a page that
    /// only reads) and the replica has replayed past `mustSee` (the reader's own last write,
    /// GitLab's rule); every read after a write of its own on the primary. Returns where the
    /// primary's log stood after its last write, for the reader's next requests to wait for.
    public func scoped<T>(replicaAllowed: Bool, mustSee: WALPosition?, _ body: () throws -> T) rethrows -> (value: T, wrote: WALPosition?) {
        let scope = ReadScope(allowsReplica: replicaAllowed, mustSee: mustSee)
        let value = try ReadScope.$current.withValue(scope) { try body() }
        return (value, scope.wrote)
    }

    /// `handler` hears what every write committed from now on changed (on this server, and
    /// on PostgreSQL on every server sharing the database), on a thread of the signal's.
    public func listen(_ handler: @escaping @Sendable (Set<Change>) -> Void) {
        signal.listen(handler)
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
        let pool = try DatabasePool(path: path, configuration: configuration)
        // GRDB sets up WAL mode after `prepareDatabase`, and with it `synchronous = NORMAL` on the
        // writer: a commit could be lost to a power cut. FULL again, on the one connection that
        // writes (`theFileDatabaseUsesWALAndFullSync` reads it there).
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        return try AppDatabase(pool, path: path, timings: timings)
    }

    /// A private in-memory database, for tests and benchmarks.
    public static func inMemory() throws -> AppDatabase {
        let timings = DatabaseTimings()
        return try AppDatabase(DatabaseQueue(configuration: configuration(timings)), timings: timings)
    }

    /// Names of the migrations already applied, oldest first.
    public func appliedMigrations() throws -> [String] {
        switch store {
        case .sqlite(let sqlite): try sqlite.writer.read { db in try Migrations.migrator.appliedMigrations(db) }
        case .postgres(let pool): try pool.withConnection { try PostgresMigrations.applied($0) }
        }
    }

    /// Closes the connections it keeps; on PostgreSQL a later use opens new ones, but changes
    /// are no longer heard.
    public func close() throws {
        switch store {
        case .sqlite(let sqlite): try sqlite.close()
        case .postgres(let pool):
            signal.close()
            pool.close()
            replicas?.close()
        }
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

extension AppDatabase {
    /// Creates an empty UTF-8 database `name` (letters, digits and `_`) on the PostgreSQL
    /// server at `server` (a URL naming any database there), copied from `template`, and
    /// returns its URL: for tests and tools.
    public static func createPostgresDatabase(named name: String, server: String, template: String = "template0") throws -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789_")
        guard !name.isEmpty, name.allSatisfy(allowed.contains), template.allSatisfy(allowed.contains),
              let range = server.range(of: #"/[^/?]*(\?|$)"#, options: [.regularExpression, .backwards]) else {
            throw PostgresError.connection("cannot name a database \(name) on \(server)")
        }
        try PostgresConnection(url: server).execute(
            "CREATE DATABASE \(name) TEMPLATE \(template) ENCODING 'UTF8' LC_CTYPE 'C.UTF-8' LC_COLLATE 'C.UTF-8'")
        let query = server[range].hasSuffix("?") ? "?" : ""
        return server.replacingCharacters(in: range, with: "/" + name + query)
    }
}
