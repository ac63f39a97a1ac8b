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
        let exact = dateTime(date, language)
        return Moment(iso: InternetDate.format(date), exact: exact, text: ago(date, language, now: now) ?? self.date(date, language))
    }

    /// How long ago, for the last seven days; nil further back (or for a date that is not finite).
    func ago(_ date: Date, _ language: Language, now: Date) -> String? {
        let seconds = now.timeIntervalSince(date)
        guard seconds.isFinite, seconds < 7 * 86_400 else { return nil }
        // A clock a little ahead of ours is "just now", not "in 2 min".
        guard let whole = Checked.rounded(max(seconds, 0).rounded(.down), in: 0...(7 * 86_400)), whole >= 60 else {
            return text("time.just_now", language)
        }
        switch whole {
        case ..<3_600: return text("time.minutes", language, ["count": number(whole / 60, language)])
        case ..<86_400: return count("time.hours", whole / 3_600, language)
        default: return count("time.days", whole / 86_400, language)
        }
    }
}
