import Foundation
import Network

/// The sign-in providers an operator turns on, from flags or one JSON file, each by the
/// fields its provider needs:
///
///     { "kakao":  { "client_id": "…", "client_secret": "…" },
///       "naver":  { "client_id": "…", "client_secret": "…" },
///       "google": { "client_id": "…", "client_secret": "…" },
///       "apple":  { "client_id": "…", "team_id": "…", "key_id": "…", "private_key_file": "/etc/moim/apple.p8" },
///       "oidc":   { "issuer": "https://sso.example.org", "client_id": "…", "client_secret": "…", "name": "Club SSO" } }
///
/// A field given both ways is an error, not a silent choice.
public struct SignInSettings {
    /// The fields each provider takes, in the order their buttons appear.
    static let fields: [(provider: String, fields: [String])] = [
        ("kakao", ["client_id", "client_secret"]), ("naver", ["client_id", "client_secret"]), ("google", ["client_id", "client_secret"]),
        ("apple", ["client_id", "team_id", "key_id", "private_key_file"]), ("oidc", ["issuer", "client_id", "client_secret", "name"]),
    ]
    private var values: [String: [String: String]] = [:]

    public init() {}

    /// The settings in the JSON file at `path`.
    public init(file path: String) throws(ConfigurationError) {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20,
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ConfigurationError("\(path) is not a JSON object of sign-in providers")
        }
        for (provider, entry) in json {
            guard let known = Self.fields.first(where: { $0.provider == provider }) else {
                throw ConfigurationError("\(path): \(provider) is not a provider Moim knows (\(Self.fields.map(\.provider).joined(separator: ", ")))")
            }
            guard let entry = entry as? [String: Any] else { throw ConfigurationError("\(path): \(provider) must be an object") }
            for (field, value) in entry {
                guard known.fields.contains(field), let text = value as? String else {
                    throw ConfigurationError("\(path): \(provider).\(field) is not one of \(known.fields.joined(separator: ", ")) as a string")
                }
                try set(provider, field, text)
            }
        }
    }

    /// Sets one field (from a flag or its environment twin); nil leaves it as it is.
    public mutating func set(_ provider: String, _ field: String, _ value: String?) throws(ConfigurationError) {
        guard let value else { return }
        guard values[provider]?[field] == nil else { throw ConfigurationError("\(provider) \(field) is given twice") }
        values[provider, default: [:]][field] = value.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Each provider with any field set, checked whole.
    public func providers() throws(ConfigurationError) -> [OpenIDProvider.Configuration] {
        var providers: [OpenIDProvider.Configuration] = []
        for entry in Self.fields {
            guard let given = values[entry.provider] else { continue }
            let required = entry.fields.filter { $0 != "name" }
            let missing = required.filter { (given[$0] ?? "").isEmpty }
            guard missing.isEmpty else {
                throw ConfigurationError("\(entry.provider) needs \(required.joined(separator: ", ")); missing: \(missing.joined(separator: ", "))")
            }
            providers.append(try Self.configuration(entry.provider, given))
        }
        return providers
    }

    private static func configuration(_ provider: String, _ given: [String: String]) throws(ConfigurationError) -> OpenIDProvider.Configuration {
        let clientID = given["client_id"] ?? "", secret = given["client_secret"] ?? ""
        switch provider {
        case "kakao":
            return .init(id: "kakao", name: "Kakao", issuer: "https://kauth.kakao.com", clientID: clientID, clientSecret: .fixed(secret))
        case "naver":
            // OAuth 2 with a profile endpoint, not OpenID Connect (see `OpenIDProvider`).
            var naver = OpenIDProvider.Configuration(id: "naver", name: "Naver", issuer: "https://nid.naver.com", clientID: clientID,
                                                     clientSecret: .fixed(secret))
            naver.oauth = .init(authorization: "https://nid.naver.com/oauth2.0/authorize", token: "https://nid.naver.com/oauth2.0/token",
                                profile: "https://openapi.naver.com/v1/nid/me", reading: .naver)
            return naver
        case "google":
            return .init(id: "google", name: "Google", issuer: "https://accounts.google.com", clientID: clientID, clientSecret: .fixed(secret))
        case "apple":
            let file = given["private_key_file"] ?? ""
            guard let pem = try? String(contentsOfFile: file, encoding: .utf8),
                  let signer = AppleClientSecret(teamID: given["team_id"] ?? "", keyID: given["key_id"] ?? "", privateKey: pem) else {
                throw ConfigurationError("apple's private key (\(file)) must be the .p8 file of a P-256 key from Apple")
            }
            var apple = OpenIDProvider.Configuration(id: "apple", name: "Apple", issuer: "https://appleid.apple.com", clientID: clientID,
                                                     clientSecret: .apple(signer))
            apple.scopes = ["openid", "email", "name"]
            apple.postsBack = true
            return apple
        default:
            let issuer = given["issuer"] ?? ""
            guard HTTPEndpoint.split(issuer) != nil else { throw ConfigurationError("oidc's issuer must be an http(s) URL") }
            let name = (given["name"] ?? "").isEmpty ? "SSO" : String((given["name"] ?? "").prefix(40))
            return .init(id: "oidc", name: name, issuer: issuer, clientID: clientID, clientSecret: .fixed(secret))
        }
    }
}
