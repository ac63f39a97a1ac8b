import Foundation
import Synchronization

/// Date and number formatters, made once per language and style.
///
/// Creating an ICU formatter costs far more than using one (it was a fifth of a profile
/// page's time), and Foundation's formatters are not safe to share across threads, so each
/// is kept here and used under a lock.
final class Formatters: Sendable {
    private let dates = Mutex<[String: DateFormatter]>([:])
    private let weekdays = Mutex<[Language: [String]]>([:])

    /// Short weekday names, Sunday first.
    func shortWeekdays(_ language: Language) -> [String] {
        weekdays.withLock { cache in
            if let symbols = cache[language] { return symbols }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: language.localeIdentifier)
            let symbols = formatter.shortWeekdaySymbols ?? ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
            cache[language] = symbols
            return symbols
        }
    }

    /// `skeleton` is an ICU skeleton such as "yMMMM"; the language orders and spells it.
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
        let digits = Array(String(value.magnitude).utf8)
        var text: [UInt8] = value < 0 ? [UInt8(ascii: "-")] : []
        text.reserveCapacity(digits.count + digits.count / 3 + 1)
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(UInt8(ascii: ",")) }
            text.append(digit)
        }
        return String(decoding: text, as: UTF8.self)
    }
}
