import Dispatch
import Glibc
import Synchronization

/// At most `size` connections to one PostgreSQL database, opened when first needed and kept
/// while they work; one that broke (the server restarted) is dropped, and the next request
/// opens a new one, so the site recovers by itself once the server is back.
final class PostgresPool: Sendable {
    let url: String
    let size: Int
    /// Each connection's longest wait for an answer, in milliseconds (`PostgresConnection`).
    let answerTimeout: Int32?
    private let idle = Mutex<[PostgresConnection]>([])
    private let free: DispatchSemaphore
    /// How long a request waits for a connection before the page says "busy" (503).
    private let wait: DispatchTimeInterval
    /// With several hosts in `url`: which one is the primary to use (nil: libpq picks).
    private let fence: PrimaryFence?

    /// `fenced`: with several hosts in `url`, connect only to the writable one on the newest
    /// timeline (`PrimaryFence`); a pool of a replica's connections is not.
    init(url: String, size: Int, wait: DispatchTimeInterval = .seconds(5), answerTimeout: Int32? = nil, fenced: Bool = true) {
        self.url = url
        self.answerTimeout = answerTimeout
        self.size = max(1, size)
        self.wait = wait
        free = DispatchSemaphore(value: self.size)
        fence = fenced ? PrimaryFence(url: url, answerTimeout: answerTimeout) : nil
    }

    /// Runs `body` on a connection of its own.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        guard free.wait(timeout: .now() + wait) == .success else {
            throw PostgresError.connection("all \(size) connections are busy")
        }
        defer { free.signal() }
        // Connections opened before the fence chose another host are to an old primary.
        let current = fence?.generation.load(ordering: .acquiring) ?? 0
        while let connection = idle.withLock({ $0.popLast() }) {
            guard connection.generation == current else { continue }
            let answered = connection.answers
            do {
                return try run(body, on: connection)
            } catch PostgresError.connection where connection.answers == answered {
                // The server closed this idle connection (it restarted) before anything ran
                // on it: the same work on a new connection is safe.
            }
            break
        }
        return try run(body, on: connect())
    }

    private func connect() throws -> PostgresConnection {
        guard let fence else { return try PostgresConnection(url: url, answerTimeout: answerTimeout) }
        let (connection, generation) = try fence.connect()
        connection.generation = generation
        return connection
    }

    private func run<T>(_ body: (PostgresConnection) throws -> T, on connection: PostgresConnection) throws -> T {
        defer { if connection.isUsable { idle.withLock { $0.append(connection) } } }
        return try body(connection)
    }

    /// Runs `body` in one transaction that behaves as if it ran alone (`SERIALIZABLE`), as
    /// SQLite's single writer does: a transaction that lost a race to another is run again
    /// after a short random pause (up to 20 times), so every rule a write checks holds under a
    /// rush and racers do not collide again in step.
    /// `afterCommit` runs on the same connection once the transaction has committed.
    func transaction<T>(_ body: (PostgresConnection) throws -> T, afterCommit: ((PostgresConnection) -> Void)? = nil) throws -> T {
        try withConnection { connection in
            var attempt = 1
            while true {
                try connection.execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
                do {
                    let value = try body(connection)
                    try connection.execute("COMMIT")
                    afterCommit?(connection)
                    return value
                } catch let error as PostgresError where error.isRetryable && attempt < 20 {
                    // A COMMIT that lost the race has ended the transaction already.
                    if connection.inTransaction { try? connection.execute("ROLLBACK") }
                    usleep(UInt32.random(in: 100...(1_000 << min(attempt, 5))))
                    attempt += 1
                } catch {
                    if connection.inTransaction { try? connection.execute("ROLLBACK") }
                    throw error
                }
            }
        }
    }

    /// Runs `body` while holding the session advisory lock `key` on a connection of its own,
    /// if no other session holds it; returns whether it ran. A server that dies lets go of
    /// the lock with its connection.
    func whileHolding(lock key: Int64, _ body: () throws -> Void) throws -> Bool {
        try withConnection { connection in
            var acquired = false
            try connection.run("SELECT pg_try_advisory_lock(?)", [.integer(key)]) { acquired = try $0.bool(atIndex: 0) }
            guard acquired else { return false }
            defer { _ = try? connection.run("SELECT pg_advisory_unlock(?)", [.integer(key)]) }
            try body()
            return true
        }
    }

    /// Closes the idle connections (those in use close when their work ends).
    func close() {
        idle.withLock { $0.removeAll() }
    }
}
