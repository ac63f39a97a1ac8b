import Foundation
import HTTP
import Storage

extension App {
    /// `POST /crews/:slug/retros/:id/close`: staff, once it has started.
    func retroClose(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, user) = try staffCrew(context)
        guard let retro = try retro(context, crew) else { throw HTTPError(.notFound) }
        try storageAction(context, Self.crewRefusals) { try database.retros.closeRetro(id: retro.storedID, by: user.storedID) }
        return redirect(to: Paths.crew(crew.slug) + "/retros", flash: \.retro_closed)
    }
}
