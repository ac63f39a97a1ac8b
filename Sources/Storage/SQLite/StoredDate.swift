import Foundation
import GRDB

/// Dates as GRDB stores them: `2026-11-24 09:30:00.250`, UTC.
enum StoredDate {
    /// A date as SQLite holds it, in GRDB's format or any other GRDB reads.
    static func date(_ text: String) -> Date? {
        var text = text
        if let date = text.withUTF8({ $0.count == 23 ? parse($0) : nil }) { return date }
        return Date.fromDatabaseValue(text.databaseValue)
    }

    /// The date, or nil when `text` is not exactly that form with a valid day and time.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Date? {
        guard text.count == 23, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"), text[10] == UInt8(ascii: " "),
              text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"), text[19] == UInt8(ascii: "."),
              let year = number(text, 0, 4), let month = number(text, 5, 2), let day = number(text, 8, 2),
              let hour = number(text, 11, 2), let minute = number(text, 14, 2), let second = number(text, 17, 2),
              let millisecond = number(text, 20, 3),
              (1...12).contains(month), (1...daysIn(month, of: year)).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        // Whole days from the reference date, then the time of day with its fraction, summed in
        // the order Foundation's calendar sums them, so both round to the same `Date`.
        let days = daysFromCivil(year: year, month: month, day: day) - 11_323
        let timeOfDay = Double(hour * 3_600 + minute * 60 + second) + Double(millisecond * 1_000_000) / 1_000_000_000
        return Date(timeIntervalSinceReferenceDate: Double(days * 86_400) + timeOfDay)
    }

    /// The decimal number of `length` ASCII digits from `start`, or nil.
    private static func number(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ length: Int) -> Int? {
        var value = 0
        for byte in text[start..<start + length] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`); the year has four digits, so nothing here can overflow.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
