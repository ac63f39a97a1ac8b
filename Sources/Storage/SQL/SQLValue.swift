import Foundation

/// A value bound to a statement's parameter, in terms both engines understand: SQLite stores
/// a `Bool` as 0 or 1 and a `Date` as GRDB's `yyyy-MM-dd HH:mm:ss.SSS` text in UTC;
/// PostgreSQL as `boolean` and `timestamptz`.
enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    case bool(Bool)
    case date(Date)
}

/// A Swift value that can be bound to a parameter.
protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

extension Int64: SQLBindable { var sqlValue: SQLValue { .integer(self) } }
extension Int: SQLBindable { var sqlValue: SQLValue { .integer(Int64(self)) } }
extension Int32: SQLBindable { var sqlValue: SQLValue { .integer(Int64(self)) } }
extension Double: SQLBindable { var sqlValue: SQLValue { .real(self) } }
extension String: SQLBindable { var sqlValue: SQLValue { .text(self) } }
extension Substring: SQLBindable { var sqlValue: SQLValue { .text(String(self)) } }
extension Bool: SQLBindable { var sqlValue: SQLValue { .bool(self) } }
extension Date: SQLBindable { var sqlValue: SQLValue { .date(self) } }
extension Data: SQLBindable { var sqlValue: SQLValue { .blob(self) } }
extension SQLValue: SQLBindable { var sqlValue: SQLValue { self } }

extension Optional: SQLBindable where Wrapped: SQLBindable {
    var sqlValue: SQLValue { map(\.sqlValue) ?? .null }
}

extension Date {
    /// Whole milliseconds since 1970 by `rule` (both engines keep dates to the millisecond);
    /// nil for an instant no `Int64` holds, infinite or NaN included.
    func milliseconds(_ rule: FloatingPointRoundingRule) -> Int64? {
        let scaled = (timeIntervalSince1970 * 1_000).rounded(rule)
        return Int64(exactly: scaled)
    }
}

extension SQLValue {
    /// The arguments of a statement, `nil` being SQL's NULL.
    static func list(_ arguments: [(any SQLBindable)?]) -> [SQLValue] {
        arguments.map { $0?.sqlValue ?? .null }
    }
}
