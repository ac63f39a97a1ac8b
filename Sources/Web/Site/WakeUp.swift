import Foundation

/// A worker's doorbell: the worker waits for a ring or for its poll interval, whichever comes
/// first; a ring while it works is kept, so the next wait returns at once.
final class WakeUp: Sendable {
    private let condition = NSCondition()
    private nonisolated(unsafe) var rung = false

    func ring() {
        condition.lock()
        rung = true
        condition.signal()
        condition.unlock()
    }

    func wait(seconds: TimeInterval) {
        condition.lock()
        if !rung { _ = condition.wait(until: Date().addingTimeInterval(seconds)) }
        rung = false
        condition.unlock()
    }
}
