import Foundation

/// Whole seconds since 1970, as JWTs and webhook signatures write time: nil for a clock that
/// is not a finite number in range, never a trap.
enum UnixTime {
    static func seconds(_ date: Date) -> Int? {
        Int(exactly: date.timeIntervalSince1970.rounded(.down))
    }
}
