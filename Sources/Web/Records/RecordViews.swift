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
            visibility: localizer.text("records.visibility.\(record.visibility.rawValue)", language),
            hasTrack: record.track != nil)
    }

    /// A run's name as running apps give it, from the part of the day it started in the
    /// site's time zone: "Morning run".
    func runName(_ started: Date, _ language: Language) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = localizer.timeZone
        let part = switch calendar.component(.hour, from: started) {
        case 5..<11: "morning"
        case 11..<14: "lunch"
        case 14..<18: "afternoon"
        case 18..<22: "evening"
        default: "night"
        }
        return localizer.text("records.run_name.\(part)", language)
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
    var route: RouteView?
    /// Others never see the first and last 200 m.
    var trimmed: Bool = false
    var meetup: MeetupLinkView?
}

struct MeetupLinkView {
    let title: String
    let url: String
}
