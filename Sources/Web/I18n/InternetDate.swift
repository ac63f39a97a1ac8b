import Foundation

/// RFC 3339 timestamps in UTC (`2026-11-22T04:41:07Z`) for `<time datetime>` and Atom.
///
/// Written by hand: Foundation's ISO8601DateFormatter builds an ICU formatter per instance,
/// which cost a feed page a sixth of its time.
enum InternetDate {
    private static let utc = TimeZone(secondsFromGMT: 0) ?? .current

    /// Empty for a date outside the years 1 to 9999 (none is ever stored).
    static func format(_ date: Date) -> String {
        guard let time = CivilTime(date, utc) else { return "" }
        return String(capacity: 20) { text in
            text.append(Digits(time.year, width: 4), "-", Digits(time.month, width: 2), "-", Digits(time.day, width: 2),
                        "T", Digits(time.hour, width: 2), ":", Digits(time.minute, width: 2), ":", Digits(time.second, width: 2), "Z")
        }
    }
}
