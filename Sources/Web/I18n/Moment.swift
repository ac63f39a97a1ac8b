import Formats
import Foundation

/// When something was written, as feeds and threads show it: "3 min ago" for the last week
/// (the date after that), with the exact time on hover (`title`) and in `datetime`.
///
///     <time datetime="{{posted.iso}}" title="{{posted.exact}}">{{posted.text}}</time>
struct Moment {
    /// RFC 3339, for `datetime`.
    let iso: String
    /// "Nov 22, 2026 at 3:04 PM"
    let exact: String
    /// "just now", "3 min ago", "2 hours ago", "4 days ago", else the date.
    let text: String
}

extension Localizer {
    func moment(_ date: Date, _ language: Language, now: Date = Date()) -> Moment {
        Moment(iso: InternetDate.format(date), exact: dateTime(date, language), text: momentText(date, language, now: now))
    }

    /// A moment's text alone, for cards whose `datetime` and hover text are kept (`FragmentCache`).
    func momentText(_ date: Date, _ language: Language, now: Date = Date()) -> String {
        ago(date, language, now: now) ?? self.date(date, language)
    }

    /// How long ago, for the last seven days; nil further back (or for a date that is not finite).
    func ago(_ date: Date, _ language: Language, now: Date) -> String? {
        let seconds = now.timeIntervalSince(date)
        guard seconds.isFinite, seconds < 7 * 86_400 else { return nil }
        let times = relativeTimes(language)
        // A clock a little ahead of ours is "just now", not "in 2 min".
        guard let whole = Checked.rounded(max(seconds, 0).rounded(.down), in: 0...(7 * 86_400 - 1)), whole >= 60 else {
            return times.justNow
        }
        switch whole {
        case ..<3_600: return times.minutes[whole / 60 - 1]
        case ..<86_400: return times.hours[whole / 3_600 - 1]
        default: return times.days[whole / 86_400 - 1]
        }
    }
}

/// Every "how long ago" a week holds, in one language: 59 minutes, 23 hours and 6 days, made
/// from the catalog once. A feed asks for one per post, and building each from the catalog's
/// template was a twentieth of the signed-in feed's time.
struct RelativeTimes: Sendable {
    let justNow: String
    /// "1 min ago" … "59 min ago", at 0 … 58.
    let minutes: [String]
    /// "1 hour ago" … "23 hours ago".
    let hours: [String]
    /// "1 day ago" … "6 days ago".
    let days: [String]

    init(_ localizer: Localizer, _ language: Language) {
        justNow = localizer.text(.time.just_now, language)
        minutes = (1...59).map { localizer.text(.time.minutes, language, ["count": localizer.number($0, language)]) }
        hours = (1...23).map { localizer.count(.time.hours, $0, language) }
        days = (1...6).map { localizer.count(.time.days, $0, language) }
    }
}
