import HTTP
import Storage

extension App {
    /// `POST /settings/providers/:provider/unlink`
    func providerUnlink(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let id = context.request.parameters["provider"], providers.contains(where: { $0.configuration.id == id }) else {
            throw HTTPError(.notFound)
        }
        do {
            let grant = try database.accounts.unlink(provider: id, userID: user.storedID)
            revoke(grant.map { [$0] } ?? [])
        } catch StorageError.locked {
            return redirect(to: Paths.settings, flash: \.provider_last_way_in)
        }
        return redirect(to: Paths.settings, flash: \.provider_unlinked)
    }
}
