import Dispatch
import Foundation
import Synchronization

/// PostgreSQL hot standbys that take the reads of pages that only read (`ReadScope`), watched
/// by a thread each: a replica is used while it answers, is in recovery (a promoted standby
/// is a primary now, and an old primary come back is no replica), and has replayed what the
/// primary had written `lagBound` seconds ago. Otherwise reads stay on the primary.
final class Replicas: Sendable {
    final class Replica: Sendable {
        let url: String
        let pool: PostgresPool
        /// How far it had replayed when last asked; nil while it is down or not a standby.
        let replayed = Mutex<WALPosition?>(nil)
        /// Whether it is within the lag bound, as of the last look.
        let fresh = Atomic<Bool>(false)

        init(url: String, pool: PostgresPool) {
            self.url = url
            self.pool = pool
        }
    }

    /// A position of the primary's log and when it was seen there (monotonic nanoseconds).
    private struct Sample {
        let position: WALPosition
        let at: UInt64
    }

    let members: [Replica]
    /// Longest lag, in nanoseconds, at which a replica still takes reads.
    let lagBound: UInt64
    private let primaryURL: String
    private let samples = Mutex<[Sample]>([])
    private let next = Atomic<UInt>(0)
    /// Reads the replicas answered, and those they failed (read again on the primary).
    let reads = Atomic<UInt64>(0)
    let failures = Atomic<UInt64>(0)
    /// How often each server is asked where it is.
    static let interval: Double = 0.1

    init(urls: [String], primary: String, connections: Int, answerTimeout: Int32?, lagBound: Double) {
        members = urls.map { Replica(url: $0, pool: PostgresPool(url: $0, size: connections, wait: .seconds(1), answerTimeout: answerTimeout, fenced: false)) }
        primaryURL = primary
        self.lagBound = UInt64(max(0.1, min(lagBound, 3_600)) * 1e9)
    }

    /// Starts the threads that watch the primary and each replica.
    func watch() {
        // Where the newest primary is, as the pool's own connections find it (`PrimaryFence`).
        let fence = PrimaryFence(url: primaryURL, answerTimeout: 1_000)
        let primary = primaryURL
        let connect: @Sendable () throws -> PostgresConnection = { try fence?.connect().0 ?? PostgresConnection(url: primary, answerTimeout: 1_000) }
        Self.start("moim-primary-watch", connect: connect) { [self] connection in
            guard let text = try connection.text("SELECT pg_current_wal_lsn()::text"), let position = WALPosition(postgres: text) else { return }
            record(position)
        }
        for replica in members {
            let connect: @Sendable () throws -> PostgresConnection = { try PostgresConnection(url: replica.url, answerTimeout: 1_000) }
            Self.start("moim-replica-watch", connect: connect, lost: { [self] in mark(replica, replayed: nil) }) { [self] connection in
                // NULL on a server not in recovery: it is no replica (any more).
                let text = try connection.text("SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()::text END")
                mark(replica, replayed: text.flatMap(WALPosition.init(postgres:)))
            }
        }
    }

    /// A replica's pool to read from, taking turns, if one is fresh and has replayed past
    /// `position` (the reader's own last write); nil: read from the primary.
    func pool(after position: WALPosition?) -> PostgresPool? {
        // Starting at the next one in turn, the first that can answer: no list per request.
        let first = next.wrappingAdd(1, ordering: .relaxed).oldValue
        for offset in members.indices {
            // Unsigned, so that the count wrapping round never makes a negative index.
            let replica = members[Int((first &+ UInt(offset)) % UInt(members.count))]
            guard replica.fresh.load(ordering: .relaxed),
                  replica.replayed.withLock({ $0.map { $0 >= (position ?? WALPosition(0)) } ?? false })
            else { continue }
            return replica.pool
        }
        return nil
    }

    /// A read on `pool` failed for the connection's sake: it takes no reads until it answers again.
    func failed(_ pool: PostgresPool) {
        failures.add(1, ordering: .relaxed)
        for replica in members where replica.pool === pool { mark(replica, replayed: nil) }
    }

    private func record(_ position: WALPosition) {
        let now = DispatchTime.now().uptimeNanoseconds
        samples.withLock { samples in
            samples.append(Sample(position: position, at: now))
            // Keep the newest sample older than the bound, and everything after it.
            if let old = samples.lastIndex(where: { now &- $0.at > lagBound }), old > 0 { samples.removeFirst(old) }
        }
    }

    /// Notes where `replica` is; it is fresh when it has replayed what the primary had written
    /// `lagBound` ago (or, for the first `lagBound` after start, what it had when first seen).
    private func mark(_ replica: Replica, replayed: WALPosition?) {
        replica.replayed.withLock { $0 = replayed }
        let now = DispatchTime.now().uptimeNanoseconds
        let required = samples.withLock { samples in
            samples.last(where: { now &- $0.at >= lagBound })?.position ?? samples.first?.position
        }
        let fresh = replayed.map { replayed in required.map { replayed >= $0 } ?? false } ?? false
        replica.fresh.store(fresh, ordering: .relaxed)
    }

    /// A thread that asks a server through `look` every `interval`, connecting (`connect`) again
    /// after a failure (calling `lost`).
    private static func start(
        _ name: String, connect: @escaping @Sendable () throws -> PostgresConnection, lost: @escaping @Sendable () -> Void = {},
        look: @escaping @Sendable (PostgresConnection) throws -> Void
    ) {
        let thread = Thread {
            var connection: PostgresConnection?
            while true {
                do {
                    let current = try connection ?? connect()
                    connection = current
                    try look(current)
                } catch {
                    connection = nil
                    lost()
                }
                Thread.sleep(forTimeInterval: interval)
            }
        }
        thread.name = name
        thread.start()
    }

    func close() {
        for replica in members { replica.pool.close() }
    }
}

/// Where one request's reads may go, and where its writes ended, on PostgreSQL with replicas
/// (`AppDatabase.scoped`). Without one, every read goes to the primary.
public final class ReadScope: @unchecked Sendable {
    /// Whether a replica may answer this request's reads (pages that only read).
    let allowsReplica: Bool
    /// The reader's own last write: a replica answers only once it has replayed past it.
    let mustSee: WALPosition?
    /// Where the primary's log stood after this request's last write; from then on its reads go
    /// to the primary too. Used by the request's one thread.
    public internal(set) var wrote: WALPosition?

    init(allowsReplica: Bool, mustSee: WALPosition?) {
        self.allowsReplica = allowsReplica
        self.mustSee = mustSee
    }

    @TaskLocal static var current: ReadScope?
}
