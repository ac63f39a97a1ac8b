import COpenSSL
import Foundation
import Synchronization

/// A sign-in provider Moim is registered with as an OpenID Connect client (Core 1.0 with
/// PKCE, RFC 7636): its endpoints come from its discovery document, its keys from its JWKS,
/// both fetched on first use and kept; the keys are fetched again when a token names one
/// Moim does not know (a provider's key rotation), at most once a minute.
///
/// A provider that speaks only OAuth 2 (Naver) has no ID token to check. Its answer is made
/// safe the other way round: the `state` (single use, bound to the browser by a cookie) ties
/// the answer to this sign-in; the code is traded for an access token by Moim itself, over
/// TLS with the client secret, at the provider's fixed token endpoint; and who signed in is
/// read with that token from the provider's own profile endpoint. Nothing that names the
/// member passes through the browser, so there is nothing a browser could forge. Such a
/// provider's addresses are never taken as verified.
public final class OpenIDProvider: Sendable {
    public let configuration: Configuration

    public struct Configuration: Sendable {
        /// In URLs and the database: `kakao`, `google`, `apple`, `oidc`.
        public var id: String
        /// On the button: "Kakao", "Google", "Apple", or the operator's name for theirs.
        public var name: String
        /// The issuer exactly as the provider's tokens name it; its discovery document is at
        /// `issuer/.well-known/openid-configuration`.
        public var issuer: String
        public var clientID: String
        public var clientSecret: ClientSecret
        public var scopes = ["openid", "email", "profile"]
        /// Apple posts its answer back (`response_mode=form_post`) instead of redirecting.
        public var postsBack = false
        /// PEM certificates to trust beside the system's (a club's own Keycloak).
        public var trustedCertificates: String?
        /// Set for a provider that speaks OAuth 2 with a profile endpoint instead of OpenID
        /// Connect; `issuer` then only names it.
        public var oauth: OAuthEndpoints?

        public init(id: String, name: String, issuer: String, clientID: String, clientSecret: ClientSecret) {
            self.id = id
            self.name = name
            self.issuer = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
            self.clientID = clientID
            self.clientSecret = clientSecret
        }
    }

    /// The fixed endpoints of an OAuth 2 provider without discovery, and how its profile reads.
    public struct OAuthEndpoints: Sendable {
        public var authorization: String
        public var token: String
        public var profile: String
        public var reading: ProfileReading

        public init(authorization: String, token: String, profile: String, reading: ProfileReading) {
            (self.authorization, self.token, self.profile, self.reading) = (authorization, token, profile, reading)
        }
    }

    /// How the client proves itself at the token endpoint.
    public enum ClientSecret: Sendable {
        case fixed(String)
        /// Apple's: a JWT signed for each request with the operator's ES256 key.
        case apple(AppleClientSecret)

        func value(clientID: String, now: Date) throws(OpenIDError) -> String {
            switch self {
            case .fixed(let secret): secret
            case .apple(let signer): try signer.token(clientID: clientID, now: now)
            }
        }
    }

    struct Endpoints: Sendable {
        let authorization: String
        let token: String
        let keys: String
        /// Where tokens are revoked (RFC 7009), if the provider says.
        let revocation: String?
    }

    private struct State {
        var endpoints: Endpoints?
        var keys: [JSONWebKey] = []
        var keysFetched: Date?
    }
    private let state = Mutex(State())
    private let timeout: Int

    public init(_ configuration: Configuration, timeout: Int = 10) {
        self.configuration = configuration
        self.timeout = timeout
    }

    /// Where to send the browser: the authorization endpoint with the code flow's parameters.
    public func authorizationURL(state: String, nonce: String, verifier: String, redirectURI: String) throws(OpenIDError) -> String {
        var parameters = [("response_type", "code"), ("client_id", configuration.clientID), ("redirect_uri", redirectURI), ("state", state)]
        let endpoint: String
        if let oauth = configuration.oauth {
            endpoint = oauth.authorization
        } else {
            endpoint = try discovered().authorization
            parameters += [
                ("scope", configuration.scopes.joined(separator: " ")), ("nonce", nonce),
                ("code_challenge", Self.challenge(verifier)), ("code_challenge_method", "S256"),
            ]
            if configuration.postsBack { parameters.append(("response_mode", "form_post")) }
        }
        let query = parameters.map { "\($0.0)=\(FormEncoding.encode($0.1))" }.joined(separator: "&")
        return endpoint + (endpoint.contains("?") ? "&" : "?") + query
    }

    /// Trades the code for tokens at the token endpoint and checks the ID token (or, from an
    /// OAuth 2 provider, reads the profile with the access token): who signed in.
    public func signIn(code: String, state: String, verifier: String, nonce: String, redirectURI: String, now: Date = Date())
        throws(OpenIDError) -> ProviderIdentity
    {
        if let oauth = configuration.oauth { return try profile(oauth, code: code, state: state, redirectURI: redirectURI, now: now) }
        let endpoints = try discovered()
        let answer = try post(endpoints.token, form: try tokenForm(code: code, redirectURI: redirectURI, now: now, [("code_verifier", verifier)]))
        guard answer.status == 200, let json = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any] else {
            throw .provider("the token endpoint answered \(answer.status)")
        }
        guard let token = json["id_token"] as? String else { throw .provider("the token endpoint sent no ID token") }
        // A refresh token is kept only to be revoked, so only where it can be.
        let refreshToken = endpoints.revocation == nil ? nil : (json["refresh_token"] as? String).flatMap(Self.checkedToken)
        return ProviderIdentity(try idToken(token, nonce: nonce, now: now), refreshToken: refreshToken)
    }

    /// The ID token `token`, checked against the provider's keys.
    private func idToken(_ token: String, nonce: String, now: Date) throws(OpenIDError) -> IDToken {
        switch verify(token, keys: try keys(now: now, refresh: false), nonce: nonce, now: now) {
        case .success(let checked):
            return checked
        case .failure(.unknownKey):
            // The provider may have rotated its keys since they were fetched.
            return try verify(token, keys: try keys(now: now, refresh: true), nonce: nonce, now: now).mapError(OpenIDError.token).get()
        case .failure(let failure):
            throw .token(failure)
        }
    }

    /// Revokes a refresh token this provider gave (RFC 7009), as Sign in with Apple asks when
    /// the member deletes their account: the grant to Moim ends at the provider too. Throws
    /// when the provider has no revocation endpoint or refuses.
    public func revoke(refreshToken: String, now: Date = Date()) throws(OpenIDError) {
        guard let endpoint = try discovered().revocation else { throw .provider("the provider names no revocation endpoint") }
        let answer = try post(endpoint, form: [
            ("token", refreshToken), ("token_type_hint", "refresh_token"),
            ("client_id", configuration.clientID), ("client_secret", try configuration.clientSecret.value(clientID: configuration.clientID, now: now)),
        ])
        // RFC 7009 §2.2: 200 whether or not the token was still valid.
        guard answer.status == 200 else { throw .provider("the revocation endpoint answered \(answer.status)") }
    }

    /// A token as a provider sent it, if it is one to keep: printable ASCII of a sane length.
    static func checkedToken(_ token: String) -> String? {
        (1...4096).contains(token.utf8.count) && token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) ? token : nil
    }

    /// OAuth 2 without an ID token: the access token from the token endpoint, then the profile.
    private func profile(_ oauth: OAuthEndpoints, code: String, state: String, redirectURI: String, now: Date) throws(OpenIDError) -> ProviderIdentity {
        let answer = try post(oauth.token, form: try tokenForm(code: code, redirectURI: redirectURI, now: now, [("state", state)]))
        // Naver answers a refused code with 200 and an `error` field.
        guard answer.status == 200, let json = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any],
              let accessToken = (json["access_token"] as? String).flatMap(Self.checkedToken)
        else { throw .provider("the token endpoint gave no access token (status \(answer.status))") }
        let profile = try get(oauth.profile, headers: [("Authorization", "Bearer " + accessToken)])
        return try oauth.reading.identity(profile)
    }

    /// What the token endpoint is sent for `code`: the grant, `extra` fields, and the client's credentials.
    private func tokenForm(code: String, redirectURI: String, now: Date, _ extra: [(String, String)]) throws(OpenIDError) -> [(String, String)] {
        [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI)] + extra
            + [("client_id", configuration.clientID), ("client_secret", try configuration.clientSecret.value(clientID: configuration.clientID, now: now))]
    }

    private func verify(_ token: String, keys: [JSONWebKey], nonce: String, now: Date) -> Result<IDToken, IDToken.Failure> {
        Result { () throws(IDToken.Failure) in
            try IDToken(verifying: token, keys: keys, issuer: configuration.issuer, clientID: configuration.clientID, nonce: nonce, now: now)
        }
    }

    /// The provider's endpoints, from its discovery document (fetched once).
    func discovered() throws(OpenIDError) -> Endpoints {
        if let endpoints = state.withLock({ $0.endpoints }) { return endpoints }
        let document = try get(configuration.issuer + "/.well-known/openid-configuration")
        guard let json = try? JSONSerialization.jsonObject(with: Data(document)) as? [String: Any] else {
            throw .provider("the discovery document is not JSON")
        }
        // OpenID Connect Discovery §4.3: the document must name the very issuer asked for.
        guard json["issuer"] as? String == configuration.issuer else { throw .provider("the discovery document names another issuer") }
        guard let authorization = json["authorization_endpoint"] as? String, let token = json["token_endpoint"] as? String,
              let keys = json["jwks_uri"] as? String,
              [authorization, token, keys].allSatisfy({ HTTPEndpoint.split($0) != nil })
        else { throw .provider("the discovery document lacks an endpoint") }
        let revocation = (json["revocation_endpoint"] as? String).flatMap { HTTPEndpoint.split($0) == nil ? nil : $0 }
        let endpoints = Endpoints(authorization: authorization, token: token, keys: keys, revocation: revocation)
        state.withLock { $0.endpoints = endpoints }
        return endpoints
    }

    private func keys(now: Date, refresh: Bool) throws(OpenIDError) -> [JSONWebKey] {
        let cached = state.withLock { state -> [JSONWebKey]? in
            if state.keysFetched == nil { return nil }
            if refresh, let fetched = state.keysFetched, now.timeIntervalSince(fetched) > 60 { return nil }
            return state.keys
        }
        if let cached { return cached }
        let keys = JSONWebKey.set(try get(try discovered().keys))
        guard !keys.isEmpty else { throw .provider("the provider's key set holds no RS256 or ES256 key") }
        state.withLock { state in
            state.keys = keys
            state.keysFetched = now
        }
        return keys
    }

    private func client(for url: String) throws(OpenIDError) -> (HTTPClient, String) {
        guard let (endpoint, target) = HTTPEndpoint.split(url) else { throw .provider("\(url) is not an http(s) URL") }
        return (HTTPClient(endpoint: endpoint, timeout: timeout, trustedCertificates: configuration.trustedCertificates), target)
    }

    private func get(_ url: String, headers: [(String, String)] = []) throws(OpenIDError) -> [UInt8] {
        let (client, target) = try client(for: url)
        do {
            let answer = try client.send("GET", target, headers: [("Accept", "application/json")] + headers, maximumBodySize: 1 << 20)
            guard answer.status == 200 else { throw OpenIDError.provider("\(url) answered \(answer.status)") }
            return answer.body
        } catch let error as OpenIDError {
            throw error
        } catch {
            throw .provider("\(url): \(error)")
        }
    }

    private func post(_ url: String, form: [(String, String)]) throws(OpenIDError) -> HTTPClientResponse {
        let (client, target) = try client(for: url)
        let body = form.map { "\($0.0)=\(FormEncoding.encode($0.1))" }.joined(separator: "&")
        do {
            return try client.send("POST", target, headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
                                   body: Array(body.utf8), maximumBodySize: 1 << 20)
        } catch {
            throw .provider("\(url): \(error)")
        }
    }

    /// PKCE's S256 challenge: base64url(SHA-256(verifier)).
    static func challenge(_ verifier: String) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let bytes = Array(verifier.utf8)
        EVP_Digest(bytes, bytes.count, &digest, &length, EVP_sha256(), nil)
        return Base64URL.encode(Array(digest.prefix(Int(length))))
    }
}

/// Why a sign-in through a provider failed, for the log (the member sees a plain page).
public enum OpenIDError: Error, CustomStringConvertible {
    case provider(String)
    case token(IDToken.Failure)

    public var description: String {
        switch self {
        case .provider(let reason): reason
        case .token(let failure): failure.description
        }
    }
}

/// `application/x-www-form-urlencoded` values: everything but unreserved characters escaped.
enum FormEncoding {
    static func encode(_ text: String) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        return text.utf8.map { unreserved.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
    }
}
