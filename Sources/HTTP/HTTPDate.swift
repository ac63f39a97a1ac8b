#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// IMF-fixdate formatting (RFC 9110 §5.6.7), cached per second for the `Date` header.
public enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let cache = Mutex<(second: Int, text: String)>((-1, ""))

    /// `Sun, 06 Nov 1994 08:49:37 GMT` for a time in seconds since 1970.
    public static func format(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// The current time, formatted; computed at most once a second.
    public static var now: String {
        let second = time(nil)
        return cache.withLock { cached in
            if cached.second != second {
                cached = (second, format(second))
            }
            return cached.text
        }
    }
}

/// Milliseconds on a clock that never jumps, for timeouts.
func monotonicMilliseconds() -> Int {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return spec.tv_sec * 1000 + spec.tv_nsec / 1_000_000
}
