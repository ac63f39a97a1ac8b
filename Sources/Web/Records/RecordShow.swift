import Foundation
import HTTP
import Storage

extension App {
    /// `GET /records/:id`: the run, its route (trimmed at both ends for others) and profile.
    func recordShow(_ context: RequestContext) throws -> HTTPResponse {
        guard let id = context.request.parameters["id"].flatMap(Checked.id),
              let record = try database.record(id: id, viewerID: context.user?.id),
              let runner = try database.user(id: record.userID)
        else { throw HTTPError(.notFound) }
        let language = context.language
        let isOwner = context.user?.id == record.userID
        var view = recordView(record, units: context.user?.units ?? runner.units, language)
        view["noteHTML"] = record.noteHTML
        view["runner"] = userView(runner)
        if let data = record.track {
            let track = GPXTrack(encoded: data)
            // Others never see the first and last 200 m: where a run starts is often home.
            if let drawing = RouteDrawing(isOwner ? track : track.trimmed(200)) { view["route"] = drawing.view }
            view["trimmed"] = !isOwner
        }
        if let meetupID = record.meetupID, let meetup = try database.meetup(id: meetupID) {
            view["meetup"] = ["title": meetup.title, "url": Paths.meetup(meetupID)]
        }
        return try render("record", context, title: localizer.text("records.run_title", language, ["date": localizer.date(record.startedAt, language)]),
                          section: .records, ["record": view, "isOwner": isOwner])
    }

    /// `POST /records/:id/delete`
    func recordDelete(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let id = context.request.parameters["id"].flatMap(Checked.id) else { throw HTTPError(.notFound) }
        do { try database.deleteRecord(id: id, userID: user.storedID) } catch StorageError.notFound { throw HTTPError(.notFound) }
        return redirect(to: "/records", flash: "record_deleted")
    }
}
