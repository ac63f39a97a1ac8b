import Foundation
import HTTP
import Markdown
import Storage

extension App {
    /// `GET /records/new`
    func recordNew(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        return try renderRecordForm(user, values: [:], errors: FieldErrors(), context)
    }

    /// `POST /records`: typed in, or filled from a GPX file (which wins where it has data).
    func recordCreate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let form = context.form
        var errors = FieldErrors()
        let timeZone = localizer.timeZone
        var track: GPXTrack? = nil
        if let file = context.files.first(where: { $0.field == "gpx" }) {
            do {
                track = try GPXTrack(Data(file.data))
            } catch {
                errors.add("gpx", "records.errors.gpx_\(error)")
            }
        }
        let units = user.units
        let typedDistance = Double((form["distance"] ?? "").trimmed.replacingOccurrences(of: ",", with: "."))
        let meters = track.map { Int($0.distance.rounded()) } ?? typedDistance.map { Int(($0 * (units == "mi" ? 1609.344 : 1000)).rounded()) }
        if meters.map({ !(1...1_000_000).contains($0) }) ?? true { errors.add("distance", "records.errors.distance") }
        let typedSeconds = Self.parseDuration((form["duration"] ?? "").trimmed)
        let seconds = track?.duration.map { Int($0.rounded()) } ?? typedSeconds
        if seconds.map({ !(1...360_000).contains($0) }) ?? true { errors.add("duration", "records.errors.duration") }
        let started = track?.startTime ?? MeetupForm.parseLocal((form["started_at"] ?? "").trimmed, timeZone)
        if started == nil { errors.add("started_at", "records.errors.started_at") } else if started! > Date().addingTimeInterval(3600) { errors.add("started_at", "records.errors.future") }
        let gain = track.map { Int($0.elevationGain.rounded()) } ?? Int((form["elevation"] ?? "").trimmed) ?? 0
        if !(0...20_000).contains(gain) { errors.add("elevation", "records.errors.elevation") }
        let note = (form["note"] ?? "").trimmed
        if note.count > 2000 || note.hasControlCharacters { errors.add("note", "errors.crew_description") }
        let visibility = form["visibility"].flatMap(RunRecord.Visibility.init(rawValue:))
        if visibility == nil { errors.add("visibility", "errors.choice") }
        let meetupID = form["meetup"].flatMap { $0.isEmpty ? nil : Int64($0) }

        guard errors.isEmpty, let meters, let seconds, let started, let visibility else {
            return try renderRecordForm(user, values: form.fields.reduce(into: [:]) { $0[$1.name] = $1.value }, errors: errors, context)
        }
        let record = RunRecord(userID: try user.storedID, startedAt: started, distanceMeters: meters, durationSeconds: seconds, elevationGain: gain,
                               note: note, noteHTML: MarkdownRenderer.html(note), visibility: visibility, meetupID: meetupID, track: track?.encoded)
        let saved = try storageAction(context) { try database.createRecord(record) }
        return redirect(to: Paths.record(saved.id ?? 0), flash: "record_saved")
    }

    /// `45:30`, `1:02:03` or a number of minutes.
    static func parseDuration(_ text: String) -> Int? {
        let parts = text.split(separator: ":").map { Int($0) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        let values = parts.compactMap { $0 }
        switch values.count {
        case 1: return values[0] * 60
        case 2: return values[0] * 60 + values[1]
        case 3: return values[0] * 3600 + values[1] * 60 + values[2]
        default: return nil
        }
    }

    private func renderRecordForm(_ user: User, values: [String: String], errors: FieldErrors, _ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        let meetups = try database.recentMeetupsAttended(userID: user.storedID)
        return try render("record-form", context, title: localizer.text("records.new_title", language), section: .records,
                          status: errors.isEmpty ? .ok : .unprocessableContent, [
            "v": [
                "startedAt": values["started_at"] ?? MeetupForm.local(Date(), localizer.timeZone),
                "distance": values["distance"] ?? "", "duration": values["duration"] ?? "",
                "elevation": values["elevation"] ?? "", "note": values["note"] ?? "",
            ],
            "unitLabel": user.units == "mi" ? "mi" : "km",
            "visibilities": RunRecord.Visibility.allCases.map { ["value": $0.rawValue, "label": localizer.text("records.visibility.\($0.rawValue)", language),
                                                                 "selected": $0.rawValue == (values["visibility"] ?? "crew")] as [String: Any] },
            "meetups": meetups.map { ["value": $0.id ?? 0, "label": $0.title + " · " + localizer.date($0.startsAt, language)] as [String: Any] },
            "hasMeetups": !meetups.isEmpty,
            "errors": errors.localized(localizer, language),
            "hasErrors": !errors.isEmpty,
        ])
    }
}
