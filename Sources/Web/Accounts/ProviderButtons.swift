import HTTP
import Storage

/// A "Continue with Kakao" button on the login and signup pages.
struct ProviderButton {
    let id: String
    let name: String
    let url: String
}

/// A provider in settings: linked or not, and whether it may be unlinked.
struct ProviderLink {
    let id: String
    let name: String
    let linked: Bool
    /// Unlinking leaves another way in (a password or another provider).
    let canUnlink: Bool
    var linkURL: String { Paths.providerStart(id) + "?link=1" }
    var unlinkURL: String { "/settings/providers/\(id)/unlink" }
}

extension App {
    func providerButtons(next: String) -> [ProviderButton] {
        providers.map { provider in
            let id = provider.configuration.id
            return ProviderButton(id: id, name: provider.configuration.name,
                                  url: Paths.providerStart(id) + (next == Paths.home ? "" : "?next=" + PercentEncoding.encode(next)))
        }
    }

    func providerLinks(_ user: User) throws -> [ProviderLink] {
        let linked = Set(try database.accounts.identities(userID: user.storedID))
        let ways = linked.count + (user.passwordHash.isEmpty ? 0 : 1)
        return providers.map { provider in
            let id = provider.configuration.id
            return ProviderLink(id: id, name: provider.configuration.name, linked: linked.contains(id), canUnlink: ways > 1)
        }
    }
}
