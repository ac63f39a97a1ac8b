import Formats
import Foundation
import HTTP
import Storage

extension App {
    /// `GET /crews/:slug/retros`: the crew's retrospectives; staff create them here.
    func retroList(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, role) = try retroCrew(context)
        let language = context.language
        let now = Date()
        var view = try crewPage(crew, tab: .retros, role: role, context)
        view.retrosTab = CrewRetrosTab(
            retros: try database.retros.retros(crewID: crew.storedID).map { retro in
                RetroRowView(
                    name: retro.name, url: Paths.retro(retro, crew: crew.slug), when: localizer.dateTime(retro.startsAt, language),
                    state: localizer.text(retro.closedAt != nil ? .retros.closed : retro.hasStarted(at: now) ? .retros.open : .retros.upcoming, language))
            },
            newStart: LocalDateTime.text(now.addingTimeInterval(7 * 86_400), localizer.timeZone),
            timeZone: Formatters.offsetName(localizer.timeZone, at: Date()))
        return renderCrew(view, crew, context)
    }

    /// `POST /crews/:slug/retros`: staff only.
    func retroCreate(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, user) = try staffCrew(context)
        let name = (context.form["name"] ?? "").trimmed
        guard name.isName(1, 60),
              let start = Checked.localDateTime((context.form["starts_at"] ?? "").trimmed, in: localizer.timeZone)
        else { throw HTTPError(.unprocessableContent, message: localizer.text(.retros.errors.form, context.language)) }
        let retro = try storageAction(context, Self.crewRefusals) { try database.retros.createRetro(crewID: crew.storedID, by: user.storedID, name: name, startsAt: start) }
        return redirect(to: Paths.retro(retro, crew: crew.slug), flash: \.retro_created)
    }
}
