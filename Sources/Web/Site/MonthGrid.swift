import Formats
import Foundation
import HTTP

/// A month laid out in weeks from Monday, on the site's clock: what the runs calendar and a
/// crew's calendar of meetups are drawn on.
struct MonthGrid {
    let calendar: Calendar
    /// The first moment of the month, and of the months before and after it.
    let start: Date
    let next: Date
    let previous: Date

    /// The month `?month=YYYY-MM` names, or this one; a malformed or impossible month is a 400.
    init(_ text: String?, timeZone: TimeZone, now: Date = Date()) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.firstWeekday = 2  // weeks start on Monday
        let start: Date?
        if let text {
            start = text.utf8.count == 7 ? Checked.localDateTime(text + "-01T00:00", in: timeZone) : nil
        } else {
            start = calendar.date(from: calendar.dateComponents([.year, .month], from: now))
        }
        guard let start, let next = calendar.date(byAdding: .month, value: 1, to: start),
              let previous = calendar.date(byAdding: .month, value: -1, to: start) else { throw HTTPError(.badRequest) }
        (self.calendar, self.start, self.next, self.previous) = (calendar, start, next, previous)
    }

    /// Its weeks, each of seven days of the month, 0 where a day belongs to the month before or after.
    var weeks: [[Int]] {
        let leading = (calendar.component(.weekday, from: start) + 5) % 7
        let days = calendar.range(of: .day, in: .month, for: start)?.count ?? 30
        let cells = Array(repeating: 0, count: leading) + Array(1...days)
        return stride(from: 0, to: cells.count, by: 7).map { first in
            let week = Array(cells[first..<min(first + 7, cells.count)])
            return week + Array(repeating: 0, count: 7 - week.count)
        }
    }

    /// The day of the month `date` falls on.
    func day(of date: Date) -> Int { calendar.component(.day, from: date) }

    /// `YYYY-MM` of a month's first moment, for `?month=`.
    func query(_ month: Date) -> String {
        String(InternetDate.format(month.addingTimeInterval(Double(calendar.timeZone.secondsFromGMT(for: month)))).prefix(7))
    }
}
