import Formats
import Foundation
import Geo
import HTTP
import Markdown
import Storage

/// One run.
struct RecordPageView: PageView {
    static let template = "record"
    let record: RunView
    let isOwner: Bool
}

/// A run's notes and visibility, changed after the run.
struct RecordEditView: PageView {
    static let template = "record-edit"
    let url: String
    let note: String
    let visibilities: [Choice]
    let errors: [String: String]
    var hasErrors: Bool { !errors.isEmpty }
}

extension App {
    /// `GET /records/:id`: the run, its route (trimmed at both ends for others) and profile.
    func recordShow(_ context: RequestContext) throws -> HTTPResponse {
        guard let id = context.request.parameters["id"].flatMap(Checked.id),
              let record = try database.records.record(id: id, viewerID: context.user?.id),
              let runner = try database.accounts.user(id: record.userID)
        else { throw HTTPError(.notFound) }
        let language = context.language
        let isOwner = context.user?.id == record.userID
        var run = runView(record, units: context.user?.units ?? runner.units, language)
        run.name = runName(record.startedAt, language)
        run.splits = SplitView.list(record.splits)
        run.noteHTML = record.noteHTML
        run.runner = UserView(runner)
        if let data = record.track {
            let track = GPXTrack(encoded: data)
            // Others never see the first and last 200 m: where a run starts is often home.
            let unit: RouteDrawing.Unit = (context.user?.units ?? runner.units) == "mi" ? .mile : .kilometre
            let shown = isOwner ? track : track.trimmed(200)
            let drawings = MapPicture.Screen.allCases.compactMap { screen -> (MapPicture.Screen, RouteDrawing)? in
                let size = RouteDrawing.sizes[screen] ?? (RouteDrawing.width, RouteDrawing.height)
                let view = MapFrame(query: context.form["map"], width: size.width, height: size.height)
                return RouteDrawing(shown, unit: unit, size: size, view: view).map { (screen, $0) }
            }
            if let wide = drawings.last?.1 {
                let path = Paths.record(id)
                run.map = MapPicture(drawings.map { ($0.0, $0.1.frame) }, label: localizer.text(.records.route, language), tiles: configuration.tiles,
                                     unit: unit, controls: MapControls(wide.frame) { "\(path)?map=\($0.query)#map" }) { frame in
                    (drawings.first { $0.1.frame == frame }?.1.route, [])
                }
                run.profile = wide.profile
            }
            run.trimmed = !isOwner
        }
        if let meetupID = record.meetupID, let meetup = try database.meetups.meetup(id: meetupID) {
            run.meetup = MeetupLinkView(title: meetup.title, url: Paths.meetup(meetupID))
        }
        let title = localizer.text(.records.run_title, language, ["date": localizer.date(record.startedAt, language)])
        return page(RecordPageView(record: run, isOwner: isOwner), context, title: title, section: .records)
    }

    /// `GET /records/:id/edit`: the notes and visibility of one's own run, after the run.
    func recordEdit(_ context: RequestContext) throws -> HTTPResponse {
        let (user, record) = try ownRecord(context)
        return renderRecordEdit(record, note: record.note, visibility: record.visibility.rawValue, errors: FieldErrors(), user: user, context)
    }

    /// `POST /records/:id/edit`
    func recordUpdate(_ context: RequestContext) throws -> HTTPResponse {
        let (user, record) = try ownRecord(context)
        let note = (context.form["note"] ?? "").trimmed
        let visibility = context.form["visibility"].flatMap(RunRecord.Visibility.init(rawValue:))
        var errors = FieldErrors()
        if !note.fits(0, 2000) { errors.add("note", .records.errors.note) }
        guard errors.isEmpty, let visibility, let id = record.id else {
            if visibility == nil { throw HTTPError(.badRequest) }
            return renderRecordEdit(record, note: note, visibility: visibility?.rawValue ?? "", errors: errors, user: user, context)
        }
        try storageAction(context) {
            try database.records.updateRecord(id: id, userID: user.storedID, note: note, noteHTML: MarkdownRenderer.html(note), visibility: visibility)
        }
        return redirect(to: Paths.record(id), flash: \.record_updated)
    }

    /// The signed-in member's run named by `:id`; another's is not found.
    private func ownRecord(_ context: RequestContext) throws -> (User, RunRecord) {
        let user = try context.requireUser()
        guard let id = context.request.parameters["id"].flatMap(Checked.id),
              let record = try database.records.record(id: id, viewerID: user.id), record.userID == user.id
        else { throw HTTPError(.notFound) }
        return (user, record)
    }

    private func renderRecordEdit(_ record: RunRecord, note: String, visibility: String, errors: FieldErrors, user: User,
                                  _ context: RequestContext) -> HTTPResponse {
        let language = context.language
        let view = RecordEditView(
            url: Paths.record(record.id ?? 0), note: note,
            visibilities: choices(RunRecord.Visibility.allCases.map(\.rawValue), labels: TextKey.records.visibility.named, selected: visibility, language),
            errors: errors.localized(localizer, language))
        return page(view, context, title: localizer.text(.records.edit_title, language), section: .records,
                    status: errors.isEmpty ? .ok : .unprocessableContent)
    }

    /// `POST /records/:id/delete`
    func recordDelete(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let id = context.request.parameters["id"].flatMap(Checked.id) else { throw HTTPError(.notFound) }
        do { try database.records.deleteRecord(id: id, userID: user.storedID) } catch StorageError.notFound { throw HTTPError(.notFound) }
        return redirect(to: "/records", flash: \.record_deleted)
    }
}
