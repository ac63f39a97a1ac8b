import Foundation
import Synchronization

/// Dates and numbers as each language writes them.
///
/// Pages write them by hand, without locks. ICU's formatters, made once per language and
/// style (making one cost a fifth of a profile page's time) and used under a lock since they
/// are not safe to share across threads, remain as the reference the tests compare with and
/// for weekday names.
final class Formatters: Sendable {
    private let dates = Mutex<[String: DateFormatter]>([:])
    private let weekdays = Mutex<[Language: [String]]>([:])

    /// Short weekday names, Sunday first.
    func shortWeekdays(_ language: Language) -> [String] {
        weekdays.withLock { cache in
            if let symbols = cache[language] { return symbols }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: language.localeIdentifier)
            let symbols: [String] = formatter.shortWeekdaySymbols
            cache[language] = symbols
            return symbols
        }
    }

    /// The three date styles pages use, written by hand: ICU's formatters must be used under
    /// a lock, and formatting twenty post cards through them was a tenth of the feed's time.
    /// `RenderingTests` checks every style against ICU for both languages.
    enum DateStyle {
        /// "November 2026", "2026년 11월" (ICU skeleton yMMMM).
        case monthYear
        /// "Nov 22, 2026", "2026년 11월 22일" (yMMMd).
        case date
        /// "Nov 22, 2026 at 3:04 PM" (a narrow no-break space before PM, as CLDR has it),
        /// "2026년 11월 22일 오후 3:04" (yMMMdjmm).
        case dateTime

        var skeleton: String {
            switch self {
            case .monthYear: "yMMMM"
            case .date: "yMMMd"
            case .dateTime: "yMMMdjmm"
            }
        }
    }

    private static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                                     "September", "October", "November", "December"]

    func format(_ date: Date, _ style: DateStyle, _ language: Language, _ timeZone: TimeZone) -> String {
        guard let time = CivilTime(date, timeZone) else { return format(date, skeleton: style.skeleton, language, timeZone) }
        let hour = time.hour % 12 == 0 ? 12 : time.hour % 12
        let minute = Digits(time.minute, width: 2)
        let month = Self.monthNames[time.month - 1]
        return String(capacity: 48) { text in
            switch (language, style) {
            case (.en, .monthYear): text.append(month, " ", time.year)
            case (.en, .date): text.append(month.prefix(3), " ", time.day, ", ", time.year)
            case (.en, .dateTime):
                text.append(month.prefix(3), " ", time.day, ", ", time.year, " at ", hour, ":", minute, time.hour < 12 ? "\u{202F}AM" : "\u{202F}PM")
            case (.ko, .monthYear): text.append(time.year, "년 ", time.month, "월")
            case (.ko, .date): text.append(time.year, "년 ", time.month, "월 ", time.day, "일")
            case (.ko, .dateTime):
                text.append(time.year, "년 ", time.month, "월 ", time.day, "일 ", time.hour < 12 ? "오전 " : "오후 ", hour, ":", minute)
            }
        }
    }

    /// When a meetup starts, as its card shows it: "Sat, Nov 28 · 6:00 AM", "11월 28일 (토) 오전 6:00";
    /// the year only when it is not this year's.
    func meetupStart(_ start: Date, _ language: Language, _ timeZone: TimeZone, now: Date) -> String {
        guard let time = CivilTime(start, timeZone), let today = CivilTime(now, timeZone) else {
            return format(start, .dateTime, language, timeZone)
        }
        return String(capacity: 64) { text in
            appendDay(time, thisYear: today.year, language, &text)
            text.append(language == .en ? " · " : " ")
            appendClock(time, meridiem: true, language, &text)
        }
    }

    /// When a meetup runs, the day written once: "Sat, Nov 28 · 6:00 – 7:30 AM",
    /// "11월 28일 (토) 오전 6:00~7:30"; both days when it ends on another.
    func meetupSpan(_ start: Date, _ end: Date, _ language: Language, _ timeZone: TimeZone, now: Date) -> String {
        guard let from = CivilTime(start, timeZone), let to = CivilTime(end, timeZone), let today = CivilTime(now, timeZone) else {
            return format(start, .dateTime, language, timeZone) + " – " + format(end, .dateTime, language, timeZone)
        }
        let sameDay = from.year == to.year && from.month == to.month && from.day == to.day
        let sameHalf = sameDay && (from.hour < 12) == (to.hour < 12)
        return String(capacity: 128) { text in
            appendDay(from, thisYear: today.year, language, &text)
            text.append(language == .en ? " · " : " ")
            switch language {
            case .en:
                appendClock(from, meridiem: !sameHalf, language, &text)
                text.append(" – ")
                if !sameDay {
                    appendDay(to, thisYear: today.year, language, &text)
                    text.append(" · ")
                }
                appendClock(to, meridiem: true, language, &text)
            case .ko:
                appendClock(from, meridiem: true, language, &text)
                text.append(sameDay ? "~" : " ~ ")
                if !sameDay {
                    appendDay(to, thisYear: today.year, language, &text)
                    text.append(" ")
                }
                appendClock(to, meridiem: !sameHalf, language, &text)
            }
        }
    }

    /// "6:53 AM", "오전 6:53".
    func clock(_ date: Date, _ language: Language, _ timeZone: TimeZone) -> String {
        guard let time = CivilTime(date, timeZone) else { return "" }
        return String(capacity: 24) { text in appendClock(time, meridiem: true, language, &text) }
    }

    /// "Sat, Nov 28" (", 2027" when not this year), "11월 28일 (토)" ("2027년 " first).
    private func appendDay(_ time: CivilTime, thisYear: Int, _ language: Language, _ text: inout ShortText) {
        let weekday = shortWeekdays(language)[time.weekday]
        switch language {
        case .en:
            text.append(weekday, ", ", Self.monthNames[time.month - 1].prefix(3), " ", time.day)
            if time.year != thisYear { text.append(", ", time.year) }
        case .ko:
            if time.year != thisYear { text.append(time.year, "년 ") }
            text.append(time.month, "월 ", time.day, "일 (", weekday, ")")
        }
    }

    /// "6:00 AM" or "6:00"; "오전 6:00" or "6:00".
    private func appendClock(_ time: CivilTime, meridiem: Bool, _ language: Language, _ text: inout ShortText) {
        let hour = time.hour % 12 == 0 ? 12 : time.hour % 12
        switch language {
        case .en:
            text.append(hour, ":", Digits(time.minute, width: 2))
            if meridiem { text.append(time.hour < 12 ? "\u{202F}AM" : "\u{202F}PM") }
        case .ko:
            if meridiem { text.append(time.hour < 12 ? "오전 " : "오후 ") }
            text.append(hour, ":", Digits(time.minute, width: 2))
        }
    }

    /// The zone as an offset people can read at `date`: "UTC", "UTC+9", "UTC−3:30".
    static func offsetName(_ timeZone: TimeZone, at date: Date) -> String {
        let seconds = timeZone.secondsFromGMT(for: date)
        guard seconds != 0 else { return "UTC" }
        let minutes = abs(seconds) / 60
        return String(capacity: 12) { text in
            text.append("UTC", seconds < 0 ? "\u{2212}" : "+", minutes / 60)
            if minutes % 60 != 0 { text.append(":", Digits(minutes % 60, width: 2)) }
        }
    }

    /// Through ICU, under the lock: the reference the tests compare with, and the fallback for
    /// a date outside the years `CivilTime` writes.
    func format(_ date: Date, skeleton: String, _ language: Language, _ timeZone: TimeZone) -> String {
        dates.withLock { cache in
            let key = "\(language.rawValue)/\(skeleton)"
            let formatter = cache[key] ?? {
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: language.localeIdentifier)
                formatter.timeZone = timeZone
                formatter.setLocalizedDateFormatFromTemplate(skeleton)
                cache[key] = formatter
                return formatter
            }()
            return formatter.string(from: date)
        }
    }

    /// Both languages group thousands with a comma ("12,345"), so numbers are written here
    /// rather than through a NumberFormatter, which would need the lock on every call.
    func format(_ value: Int, _ language: Language) -> String {
        // Below a thousand there is nothing to group, and the digits fit a string held inline.
        if value > -1000, value < 1000 { return String(value) }
        return String(capacity: 32) { $0.appendGrouped(value) }
    }
}

/// A moment as the wall clock of a time zone shows it, in the proleptic Gregorian calendar.
struct CivilTime: Equatable {
    var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// 0 for Sunday … 6 for Saturday.
    var weekday: Int

    /// Years 1 to 9999 only (nil outside, or for a date that is not a finite number).
    init?(_ date: Date, _ timeZone: TimeZone) {
        let local = date.timeIntervalSince1970.rounded(.down) + Double(timeZone.secondsFromGMT(for: date))
        // -62,135,596,800 is 0001-01-01, 253,402,300,799 is 9999-12-31 23:59:59.
        guard local.isFinite, local >= -62_135_596_800, local <= 253_402_300_799, let seconds = Int(exactly: local) else { return nil }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        weekday = ((days + 4) % 7 + 7) % 7  // 1970-01-01 was a Thursday
        hour = secondOfDay / 3600
        minute = secondOfDay % 3600 / 60
        second = secondOfDay % 60
        // Howard Hinnant's civil_from_days: eras of 400 years that start on March 1st.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }
}
