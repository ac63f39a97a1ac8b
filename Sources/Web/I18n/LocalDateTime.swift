import Foundation

/// A moment as a form's `<input type="datetime-local">` holds it: the wall clock of a time zone.
enum LocalDateTime {
    /// `2026-11-23T19:00` in `timeZone`, as `<input type="datetime-local">` sends it.
    static func text(_ date: Date, _ timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return formatter.string(from: date)
    }
}
