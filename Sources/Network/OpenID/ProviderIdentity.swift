import Foundation

/// Who signed in through a provider: its stable id for the member (`sub`), and what it says
/// of them. `emailVerified` is true only when the provider itself vouches for the address.
public struct ProviderIdentity: Sendable, Equatable {
    public let subject: String
    public let email: String?
    public let emailVerified: Bool
    public let name: String?
    public let preferredUsername: String?
    /// The grant's refresh token, from a provider that can revoke it (kept to revoke it when
    /// the member deletes their account or unlinks the provider).
    public let refreshToken: String?

    public init(subject: String, email: String?, emailVerified: Bool, name: String?, preferredUsername: String?, refreshToken: String? = nil) {
        (self.subject, self.email, self.emailVerified, self.name, self.preferredUsername) = (subject, email, emailVerified, name, preferredUsername)
        self.refreshToken = refreshToken
    }

    /// What a checked ID token says.
    init(_ token: IDToken, refreshToken: String?) {
        self.init(subject: token.subject, email: token.email, emailVerified: token.emailVerified, name: token.name,
                  preferredUsername: token.preferredUsername, refreshToken: refreshToken)
    }
}

/// How an OAuth 2 provider's profile endpoint answers.
public enum ProfileReading: Sendable {
    /// Naver's `GET /v1/nid/me`: `{"resultcode": "00", "message": "success", "response":
    /// {"id": "…", "email": "…", "name": "…", "nickname": "…"}}`. Its `id` is the member's,
    /// per application; Naver does not say whether the address is verified, so it is not
    /// taken as verified.
    case naver

    func identity(_ body: [UInt8]) throws(OpenIDError) -> ProviderIdentity {
        guard let json = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw .provider("the profile is not JSON")
        }
        switch self {
        case .naver:
            guard json["resultcode"] as? String == "00", let profile = json["response"] as? [String: Any] else {
                throw .provider("the profile endpoint refused: \(String(describing: json["message"] ?? "no message").prefix(200))")
            }
            guard let id = profile["id"] as? String, (1...255).contains(id.utf8.count) else { throw .provider("the profile has no id") }
            let text = { (key: String) in (profile[key] as? String).flatMap { $0.isEmpty ? nil : String($0.prefix(200)) } }
            return ProviderIdentity(subject: id, email: text("email"), emailVerified: false, name: text("name") ?? text("nickname"),
                                    preferredUsername: text("nickname"))
        }
    }
}
