import Foundation

/// Whole seconds since 1970, as JWTs and webhook signatures write time: nil for a clock that
/// is not a finite number in range, never a trap.
enum UnixTime {
    static func seconds(_ date: Date) -> Int? {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        // Within ±2^53, where every whole Double is an exact Int; NaN and infinities fail the test.
        guard seconds.isFinite, abs(seconds) <= 9_007_199_254_740_992 else { return nil }
        return Int(exactly: seconds)
    }
}
