import Formats
import Foundation
import HTTP
import Markdown
import Storage

extension App {
    /// `GET /records/new`, `?meetup=ID` to log a meetup's run.
    func recordNew(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let meetup = context.request.query["meetup"].flatMap(Checked.id).map { ["meetup": String($0)] } ?? [:]
        return try renderRecordForm(user, values: meetup, errors: FieldErrors(), context)
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
                track = try GPXTrack(Data(file.data)).checked()
            } catch {
                errors.add("gpx", error.textKey)
            }
        }
        let metersPerUnit = user.units == "mi" ? 1609.344 : 1000
        let meters = track.map { Checked.rounded($0.distance, in: Self.distances) }
            ?? Checked.decimal((form["distance"] ?? "").trimmed, in: 0...1e7).flatMap { Checked.rounded($0 * metersPerUnit, in: Self.distances) }
        if meters == nil { errors.add("distance", .records.errors.distance) }
        let seconds = track?.duration.flatMap { Checked.rounded($0, in: Self.durations) }
            ?? Checked.duration((form["duration"] ?? "").trimmed, maximum: Self.durations.upperBound).flatMap { Self.durations.contains($0) ? $0 : nil }
        if seconds == nil { errors.add("duration", .records.errors.duration) }
        let started = track?.startTime ?? Checked.localDateTime((form["started_at"] ?? "").trimmed, in: timeZone)
        if let started, !Self.isPlausibleStart(started) {
            errors.add("started_at", started > Date() ? .records.errors.future : .records.errors.started_at)
        } else if started == nil {
            errors.add("started_at", .records.errors.started_at)
        }
        let typedGain = (form["elevation"] ?? "").trimmed
        let gain = track.map { Checked.rounded($0.elevationGain, in: Self.climbs) }
            ?? (typedGain.isEmpty ? 0 : Checked.decimal(typedGain, in: 0...Double(Self.climbs.upperBound)).flatMap { Checked.rounded($0, in: Self.climbs) })
        if gain == nil { errors.add("elevation", .records.errors.elevation) }
        let note = (form["note"] ?? "").trimmed
        if !note.fits(0, 2000) { errors.add("note", .records.errors.note) }
        let visibility = form["visibility"].flatMap(RunRecord.Visibility.init(rawValue:))
        if visibility == nil { errors.add("visibility", .errors.choice) }
        let meetupID = form["meetup"].flatMap(Checked.id)
        // A run recorded in the browser carries its own key, so that a resend is the same record.
        let clientKey = form["run"].flatMap { $0.isEmpty ? nil : $0 }
        if let clientKey, !Checked.isToken(clientKey, lengths: 16...64) { throw HTTPError(.badRequest) }

        guard errors.isEmpty, let meters, let seconds, let started, let gain, let visibility else {
            return try renderRecordForm(user, values: form.fields.reduce(into: [:]) { $0[$1.name] = $1.value }, errors: errors, context)
        }
        let record = RunRecord(userID: try user.storedID, startedAt: started, distanceMeters: meters, durationSeconds: seconds, elevationGain: gain,
                               note: note, noteHTML: MarkdownRenderer.html(note), visibility: visibility, meetupID: meetupID, track: track?.encoded,
                               splits: track.map { $0.splits().map(String.init).joined(separator: ",") }.flatMap { $0.isEmpty ? nil : $0 },
                               clientKey: clientKey)
        let saved = try storageAction(context) { try database.records.createRecord(record) }
        return redirect(to: Paths.record(saved.id ?? 0), flash: \.record_saved)
    }

    // The ranges the schema's CHECKs allow: metres, seconds and metres of climb.
    static let distances = 1...1_000_000
    static let durations = 1...360_000
    static let climbs = 0...20_000

    /// Not in the future (an hour of clock skew allowed), and not before GPS watches existed.
    static func isPlausibleStart(_ date: Date, now: Date = Date()) -> Bool {
        date <= now.addingTimeInterval(3600) && date.timeIntervalSince1970 >= 0
    }

    private func renderRecordForm(_ user: User, values: [String: String], errors: FieldErrors, _ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        let meetups = try database.records.recentMeetupsAttended(userID: user.storedID)
        let view = RecordFormView(
            v: RecordFormValues(
                startedAt: values["started_at"] ?? LocalDateTime.text(Date(), localizer.timeZone),
                distance: values["distance"] ?? "", duration: values["duration"] ?? "",
                elevation: values["elevation"] ?? "", note: values["note"] ?? ""),
            unitLabel: user.units == "mi" ? "mi" : "km",
            unitMeters: user.units == "mi" ? "1609.344" : "1000",
            tiles: tiles != nil,
            visibilities: choices(RunRecord.Visibility.allCases.map(\.rawValue), labels: TextKey.records.visibility.named,
                                  selected: values["visibility"] ?? "crew", language),
            meetups: meetups.map { meetup in
                let id = String(meetup.id ?? 0)
                return Choice(value: id, label: meetup.title + " · " + localizer.date(meetup.startsAt, language), selected: id == values["meetup"])
            },
            errors: errors.localized(localizer, language))
        return page(view, context, title: localizer.text(.records.new_title, language), section: .records,
                    status: errors.isEmpty ? .ok : .unprocessableContent)
    }
}

/// Logging a run.
struct RecordFormView: PageView {
    static let template = "record-form"
    /// What was typed, to type it again after an error.
    let v: RecordFormValues
    let unitLabel: String
    /// Metres in that unit, for the recorder's figures.
    let unitMeters: String
    /// Whether the site has map tiles for the recorder's map.
    let tiles: Bool
    let visibilities: [Choice]
    /// Recent meetups the member attended, to link the run to.
    let meetups: [Choice]
    var hasMeetups: Bool { !meetups.isEmpty }
    /// Each field's error message, by field name.
    let errors: [String: String]
    var hasErrors: Bool { !errors.isEmpty }
}

struct RecordFormValues {
    let startedAt: String
    let distance: String
    let duration: String
    let elevation: String
    let note: String
}
