import Formats
import Foundation
import Geo
import HTTP
import Storage

/// One run.
struct RecordPageView: PageView {
    static let template = "record"
    let record: RunView
    let isOwner: Bool
}

extension App {
    /// `GET /records/:id`: the run, its route (trimmed at both ends for others) and profile.
    func recordShow(_ context: RequestContext) throws -> HTTPResponse {
        guard let id = context.request.parameters["id"].flatMap(Checked.id),
              let record = try database.record(id: id, viewerID: context.user?.id),
              let runner = try database.user(id: record.userID)
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
                run.map = MapPicture(drawings.map { ($0.0, $0.1.frame) }, label: localizer.text("records.route", language), tiles: configuration.tiles,
                                     unit: unit, controls: MapControls(wide.frame) { "\(path)?map=\($0.query)#map" }) { frame in
                    (drawings.first { $0.1.frame == frame }?.1.route, [])
                }
                run.profile = wide.profile
            }
            run.trimmed = !isOwner
        }
        if let meetupID = record.meetupID, let meetup = try database.meetup(id: meetupID) {
            run.meetup = MeetupLinkView(title: meetup.title, url: Paths.meetup(meetupID))
        }
        let title = localizer.text("records.run_title", language, ["date": localizer.date(record.startedAt, language)])
        return page(RecordPageView(record: run, isOwner: isOwner), context, title: title, section: .records)
    }

    /// `POST /records/:id/delete`
    func recordDelete(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let id = context.request.parameters["id"].flatMap(Checked.id) else { throw HTTPError(.notFound) }
        do { try database.deleteRecord(id: id, userID: user.storedID) } catch StorageError.notFound { throw HTTPError(.notFound) }
        return redirect(to: "/records", flash: "record_deleted")
    }
}
