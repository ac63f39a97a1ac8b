import Foundation
import Storage
import Synchronization

/// Counts events per key in a sliding window and says how long a key must wait once it has
/// reached its limit. In memory (bounded in keys) when this process is the only server; in
/// the database when several share it (`AppDatabase.isShared`), so that a limit counts the
/// attempts made on every server.
final class RateLimiter: Sendable {
    let limit: Int
    let window: TimeInterval
    /// Names this limiter's keys in the shared table.
    private let name: String
    private let shared: AppDatabase?
    private let events = Mutex<[String: [Date]]>([:])
    private static let maximumKeys = 100_000

    init(_ name: String, limit: Int, window: TimeInterval, database: AppDatabase? = nil) {
        self.name = name
        self.limit = limit
        self.window = window
        shared = database?.isShared == true ? database : nil
    }

    /// Seconds until `key` may act again, or nil if it may act now. A shared count that
    /// cannot be read lets the request through: the database it needs is down anyway.
    func retryAfter(_ key: String, now: Date = Date()) -> Int? {
        let (count, oldest) = shared.flatMap { try? $0.security.rateEvents(key: sharedKey(key), since: now.addingTimeInterval(-window)) }
            ?? events.withLock { events in
                let recent = (events[key] ?? []).filter { now.timeIntervalSince($0) < window }
                return (recent.count, recent.first)
            }
        guard count >= limit, let oldest else { return nil }
        // Within the window whatever a stored time says (another server's clock may differ).
        let wait = min(window, max(1, (window - now.timeIntervalSince(oldest)).rounded(.up)))
        return Int(exactly: wait) ?? Int(window)
    }

    func record(_ key: String, now: Date = Date()) {
        if let shared {
            try? shared.security.recordRateEvent(key: sharedKey(key), at: now)
            return
        }
        events.withLock { events in
            if events.count >= Self.maximumKeys { events = events.filter { now.timeIntervalSince($0.value.last ?? now) < window } }
            var times = (events[key] ?? []).filter { now.timeIntervalSince($0) < window }
            times.append(now)
            events[key] = times
        }
    }

    func reset(_ key: String) {
        if let shared {
            try? shared.security.resetRateEvents(key: sharedKey(key))
            return
        }
        _ = events.withLock { $0.removeValue(forKey: key) }
    }

    /// Keys are cut to fit the table's limit: a hostile one cannot make the write fail.
    private func sharedKey(_ key: String) -> String {
        String((name + ":" + key).prefix(250))
    }
}
