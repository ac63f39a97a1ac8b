import Foundation
import Synchronization

/// Counts events per key in a sliding window and says how long a key must wait once it has
/// reached its limit. In memory, bounded in keys.
final class RateLimiter: Sendable {
    let limit: Int
    let window: TimeInterval
    private let events = Mutex<[String: [Date]]>([:])
    private static let maximumKeys = 100_000

    init(limit: Int, window: TimeInterval) {
        self.limit = limit
        self.window = window
    }

    /// Seconds until `key` may act again, or nil if it may act now.
    func retryAfter(_ key: String, now: Date = Date()) -> Int? {
        events.withLock { events in
            let recent = (events[key] ?? []).filter { now.timeIntervalSince($0) < window }
            guard recent.count >= limit, let oldest = recent.first else { return nil }
            return max(1, Int((window - now.timeIntervalSince(oldest)).rounded(.up)))
        }
    }

    func record(_ key: String, now: Date = Date()) {
        events.withLock { events in
            if events.count >= Self.maximumKeys { events = events.filter { now.timeIntervalSince($0.value.last ?? now) < window } }
            var times = (events[key] ?? []).filter { now.timeIntervalSince($0) < window }
            times.append(now)
            events[key] = times
        }
    }

    func reset(_ key: String) {
        _ = events.withLock { $0.removeValue(forKey: key) }
    }
}
