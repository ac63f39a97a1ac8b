import Formats
import Foundation
import HTTP
import Storage

extension App {
    /// Distance in the member's units: "10.2 km" or "6.34 mi".
    func distanceText(_ meters: Int, units: String, _ language: Language) -> String {
        units == "mi" ? String(format: "%.2f mi", Double(meters) / 1609.344) : String(format: "%.2f km", Double(meters) / 1000)
    }

    /// Pace as minutes:seconds per km (or per mile).
    func paceText(meters: Int, seconds: Int, units: String) -> String {
        let perUnit = Double(seconds) / (Double(meters) / (units == "mi" ? 1609.344 : 1000))
        guard perUnit.isFinite, perUnit < 100 * 60 else { return "—" }
        let whole = Int(perUnit.rounded())
        return String(format: "%d:%02d /%@", whole / 60, whole % 60, units == "mi" ? "mi" : "km")
    }

    func durationText(_ seconds: Int) -> String {
        seconds >= 3600 ? String(format: "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
            : String(format: "%d:%02d", seconds / 60, seconds % 60)
    }

    func runView(_ record: RunRecord, units: String, _ language: Language) -> RunView {
        RunView(
            id: record.id ?? 0,
            url: Paths.record(record.id ?? 0),
            date: localizer.dateTime(record.startedAt, language),
            distance: distanceText(record.distanceMeters, units: units, language),
            duration: durationText(record.durationSeconds),
            pace: paceText(meters: record.distanceMeters, seconds: record.durationSeconds, units: units),
            elevation: record.elevationGain > 0 ? "\(record.elevationGain) m" : nil,
            visibility: localizer.text(record.visibility.textKey, language),
            hasTrack: record.track != nil)
    }

    /// A run's name as running apps give it, from the part of the day it started in the
    /// site's time zone: "Morning run".
    func runName(_ started: Date, _ language: Language) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = localizer.timeZone
        let name: TextKey = switch calendar.component(.hour, from: started) {
        case 5..<11: .records.run_name.morning
        case 11..<14: .records.run_name.lunch
        case 14..<18: .records.run_name.afternoon
        case 18..<22: .records.run_name.evening
        default: .records.run_name.night
        }
        return localizer.text(name, language)
    }
}

/// A run, as the calendar lists it and (with its details) as its page shows it.
struct RunView {
    let id: Int64
    let url: String
    let date: String
    let distance: String
    let duration: String
    let pace: String
    let elevation: String?
    let visibility: String
    let hasTrack: Bool
    // Its page only.
    /// "Morning run"
    var name: String = ""
    var noteHTML: String = ""
    var runner: UserView?
    /// The route on a map (on tiles when the site has them).
    var map: MapPicture?
    /// Elevation along the route, when every point has one.
    var profile: ElevationProfile?
    var profileWidth: Int { RouteDrawing.width }
    var profileHeight: Int { Int(exactly: RouteDrawing.profileHeight) ?? 90 }
    /// Others never see the first and last 200 m.
    var trimmed: Bool = false
    var meetup: MeetupLinkView?
    /// Each whole kilometre's time, from a GPX file with times.
    var splits: [SplitView] = []
    var hasSplits: Bool { !splits.isEmpty }
}

/// One kilometre of a run: its number, its time as a pace, and a bar as long as it was fast.
struct SplitView {
    let number: Int
    let pace: String
    /// 30…100, the fastest kilometre 100.
    let barPercent: Int
    let fastest: Bool

    /// From the stored "301,598,…" (elapsed seconds at each kilometre); nothing for a value
    /// that is not a rising list of plausible numbers.
    static func list(_ stored: String?) -> [SplitView] {
        guard let stored, !stored.isEmpty else { return [] }
        var elapsed: [Int] = []
        for piece in stored.split(separator: ",", omittingEmptySubsequences: false) {
            guard let seconds = Checked.integer(piece, in: 0...360_000), seconds > (elapsed.last ?? 0) else { return [] }
            elapsed.append(seconds)
        }
        let times = zip(elapsed, [0] + elapsed).map { $0 - $1 }
        guard let best = times.min(), let worst = times.max(), best > 0 else { return [] }
        return times.enumerated().map { index, seconds in
            let share = worst == best ? 1 : Double(worst - seconds) / Double(worst - best)
            return SplitView(number: index + 1, pace: String(format: "%d:%02d", seconds / 60, seconds % 60),
                             barPercent: 30 + (Checked.rounded(share * 70, in: 0...70) ?? 0), fastest: seconds == best)
        }
    }
}

struct MeetupLinkView {
    let title: String
    let url: String
}
