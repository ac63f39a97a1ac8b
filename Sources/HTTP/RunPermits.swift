import CEpoll
import Foundation

/// How many handler threads run a job at once: one per processor, with a little patience.
///
/// Handlers are short (a page takes 0.1–0.3 ms) but may block (a write waiting for SQLite's
/// lock, a PostgreSQL round trip), so the pool has more threads than processors. Left alone,
/// the kernel then slices a processor's time between every busy thread, and a page caught
/// mid-way waits for the others' slices: under load the p99 was ten times the p50. With a
/// permit per processor, jobs run one after another in the order they were taken; a thread
/// that waits longer than `patience` for a permit runs anyway, so that a handler blocked on
/// the database or a slow search never holds the others back by more than that.
final class RunPermits: @unchecked Sendable {
    /// Long enough for any ordinary page, short against a person's wait.
    static let patience = 2_000_000  // nanoseconds

    private let condition = NSCondition()
    private var available: Int
    private var waiting = 0
    /// Permits released to waiters and not yet taken (taken in turn, so a thread that just
    /// released one does not take it back ahead of those that waited).
    private var handedOver = 0

    init(count: Int) {
        available = max(1, count)
    }

    /// True with a permit (then `release()` it); false when `nanoseconds` passed without one.
    func acquire(waitingAtMost nanoseconds: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if available > 0 && waiting == 0 {
            available -= 1
            return true
        }
        waiting += 1
        defer { waiting -= 1 }
        let deadline = Date(timeIntervalSinceNow: Double(nanoseconds) / 1e9)
        while handedOver == 0 {
            if !condition.wait(until: deadline) { break }
        }
        guard handedOver > 0 else { return false }
        handedOver -= 1
        return true
    }

    func release() {
        condition.lock()
        defer { condition.unlock() }
        if waiting > handedOver {
            handedOver += 1
            condition.signal()
        } else {
            available += 1
        }
    }

    /// The processors this process may run on (`taskset`, a container's CPU set).
    static func processors() -> Int {
        let allowed = Int(moim_allowed_processors())
        return allowed > 0 ? allowed : max(1, ProcessInfo.processInfo.activeProcessorCount)
    }
}
