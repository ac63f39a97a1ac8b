import Foundation
import Synchronization

/// A value worth a moment's staleness, not a query on every page (how many members have
/// joined, on explore): computed again once it is `lifetime` seconds old. Two requests that
/// find it old at once may both compute it; the later result stays.
final class Refreshed<Value: Sendable>: Sendable {
    private let lifetime: TimeInterval
    private let state = Mutex<(value: Value, at: Date)?>(nil)

    init(lifetime: TimeInterval) {
        self.lifetime = lifetime
    }

    func value(now: Date = Date(), _ compute: () throws -> Value) rethrows -> Value {
        if let (value, at) = state.withLock({ $0 }), now.timeIntervalSince(at) < lifetime { return value }
        let value = try compute()
        state.withLock { $0 = (value, now) }
        return value
    }

    /// Computes it again on the next read (this server changed it).
    func forget() {
        state.withLock { $0 = nil }
    }
}
