import Formats
import Foundation

/// The UI text catalogs (`Templates/i18n/<language>.json`) and language-aware formatting.
///
/// Keys are dotted paths into the JSON (`signup.title`). Templates write them `{{t.signup.title}}`
/// (inlined when the templates load); Swift code names them as members generated from the
/// catalog (`text(.signup.title, language)`, `TextKey`). Both catalogs must hold the same keys
/// (the build checks).
public struct Localizer: Sendable {
    private let flat: [Language: [String: String]]
    let timeZone: TimeZone
    private let formatters = Formatters()
    private var relative: [RelativeTimes] = []

    public init(directory: String, timeZone: TimeZone = .current) throws {
        var flat: [Language: [String: String]] = [:]
        for language in Language.allCases {
            let url = URL(fileURLWithPath: directory).appendingPathComponent("\(language.rawValue).json")
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
            guard let tree = Self.normalise(object) as? [String: any Sendable] else {
                throw CocoaError(.fileReadCorruptFile)
            }
            var keys: [String: String] = [:]
            Self.flatten(tree, prefix: "", into: &keys)
            flat[language] = keys
        }
        self.flat = flat
        self.timeZone = timeZone
        relative = Language.allCases.map { RelativeTimes(self, $0) }
    }

    func relativeTimes(_ language: Language) -> RelativeTimes {
        relative[language.templateIndex]
    }

    /// Every flat key of a language's catalog.
    public func keys(_ language: Language) -> Set<String> {
        Set(flat[language]?.keys ?? [:].keys)
    }

    /// The text for `key`, with `{name}` placeholders replaced. Every key is in both catalogs
    /// (the build checks); a catalog swapped for another at run time shows English, or the key.
    func text(_ key: TextKey, _ language: Language, _ arguments: [String: String] = [:]) -> String {
        text(named: key.name, language, arguments)
    }

    /// The text of `key`, or `fallback` without one: for a value read from data, such as a
    /// stored region (`.choices.region.named(region)`).
    func text(_ key: TextKey?, _ language: Language, otherwise fallback: String) -> String {
        key.map { text($0, language) } ?? fallback
    }

    private func text(named key: String, _ language: Language, _ arguments: [String: String] = [:]) -> String {
        let text = flat[language]?[key] ?? flat[.en]?[key] ?? key
        guard !arguments.isEmpty else { return text }
        // One pass over the text: `{name}` becomes the argument, anything else stays.
        var output = ""
        output.reserveCapacity(text.utf8.count + arguments.values.reduce(0) { $0 + $1.utf8.count })
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            output += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}"),
                  let value = arguments[String(rest[rest.index(after: open)..<close])]
            else {
                output += "{"
                rest = rest[rest.index(after: open)...]
                continue
            }
            output += value
            rest = rest[rest.index(after: close)...]
        }
        output += rest
        return output
    }

    /// A meetup's start on its card: "Sat, Nov 28 · 6:00 AM".
    func meetupStart(_ start: Date, _ language: Language, now: Date = Date()) -> String {
        formatters.meetupStart(start, language, timeZone, now: now)
    }

    /// A meetup's time on its page, the day written once: "Sat, Nov 28 · 6:00 – 7:30 AM (UTC+9)".
    func meetupSpan(_ start: Date, _ end: Date, _ language: Language, now: Date = Date()) -> String {
        formatters.meetupSpan(start, end, language, timeZone, now: now) + " (" + Formatters.offsetName(timeZone, at: start) + ")"
    }

    /// A wait, rounded up, as people say it: "1 minute", "45 minutes", "2 hours"; "1분", "2시간".
    func duration(_ seconds: Int, _ language: Language) -> String {
        let minutes = max(1, (seconds + 59) / 60)
        return minutes < 60 ? count(.time.minute_count, minutes, language) : count(.time.hour_count, (minutes + 59) / 60, language)
    }

    /// What a runner should know about the light, or nil: "It starts before sunrise (7:43 AM): bring a light."
    func daylight(_ warning: Daylight.Warning?, _ language: Language) -> String? {
        switch warning {
        case nil: nil
        case .beforeSunrise(let sunrise): text(.meetups.daylight.before_sunrise, language, ["time": formatters.clock(sunrise, language, timeZone)])
        case .afterSunset(let sunset): text(.meetups.daylight.after_sunset, language, ["time": formatters.clock(sunset, language, timeZone)])
        case .dark: text(.meetups.daylight.dark, language)
        }
    }

    /// A counted text: `key_one` where the language calls the count one ("1 report"), else
    /// `key_other`, with `{count}` and any other `values` filled in ("3 reports").
    func count(_ key: CountKey, _ count: Int, _ language: Language, _ values: [String: String] = [:]) -> String {
        text(counted(key, count, language), language, values.merging(["count": number(count, language)]) { _, counted in counted })
    }

    /// The text of `key` for `count` in `language`, for a message filled in later.
    func counted(_ key: CountKey, _ count: Int, _ language: Language) -> TextKey {
        language.isSingular(count) ? key.one : key.other
    }

    /// A month and year, e.g. "November 2026" or "2026년 11월".
    /// The time of day of `date` on the site's clock: "6:30 AM", "오전 6:30".
    func clock(_ date: Date, _ language: Language) -> String {
        formatters.clock(date, language, timeZone)
    }

    func monthYear(_ date: Date, _ language: Language) -> String {
        formatters.format(date, .monthYear, language, timeZone)
    }

    /// A date, e.g. "Nov 22, 2026" or "2026년 11월 22일".
    func date(_ date: Date, _ language: Language) -> String {
        formatters.format(date, .date, language, timeZone)
    }

    /// A date and time, e.g. "Nov 22, 2026, 3:04 PM" or "2026년 11월 22일 오후 3:04".
    func dateTime(_ date: Date, _ language: Language) -> String {
        formatters.format(date, .dateTime, language, timeZone)
    }

    /// Short weekday name, Monday first: "Mon" or "월".
    func weekday(_ index: Int, _ language: Language) -> String {
        formatters.shortWeekdays(language)[(index + 1) % 7]
    }

    func number(_ value: Int, _ language: Language) -> String {
        formatters.format(value, language)
    }

    private static func normalise(_ object: Any) -> (any Sendable)? {
        if let dictionary = object as? [String: Any] {
            return dictionary.compactMapValues(normalise)
        }
        if let string = object as? String { return string }
        return nil
    }

    private static func flatten(_ tree: [String: any Sendable], prefix: String, into keys: inout [String: String]) {
        for (key, value) in tree {
            if let text = value as? String {
                keys[prefix + key] = text
            } else if let subtree = value as? [String: any Sendable] {
                flatten(subtree, prefix: prefix + key + ".", into: &keys)
            }
        }
    }
}
