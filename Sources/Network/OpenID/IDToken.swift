import Foundation

/// An OpenID Connect ID token (a JWT, RFC 7519), accepted only when signed with RS256 or
/// ES256 by one of the provider's keys and meant for this client now (OpenID Connect Core
/// §3.1.3.7). `alg: none`, HMAC algorithms and unknown keys are refused, never guessed at.
public struct IDToken: Sendable, Equatable {
    public let subject: String
    public let email: String?
    public let emailVerified: Bool
    public let name: String?
    public let preferredUsername: String?
    public let nonce: String?
    public let expires: Date

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case malformed
        case algorithm(String)
        case unknownKey(String?)
        case signature
        case issuer(String)
        case audience
        case expired
        case issuedInTheFuture
        case nonce

        public var description: String {
            switch self {
            case .malformed: "the ID token is not a JWT"
            case .algorithm(let name): "the ID token is signed with \(name), not RS256 or ES256"
            case .unknownKey(let id): "no key of the provider has the id \(id ?? "(none)")"
            case .signature: "the ID token's signature does not verify"
            case .issuer(let issuer): "the ID token was issued by \(issuer)"
            case .audience: "the ID token is meant for another client"
            case .expired: "the ID token has expired"
            case .issuedInTheFuture: "the ID token was issued in the future"
            case .nonce: "the ID token's nonce is not the one this sign-in sent"
            }
        }
    }

    /// Checks `token` in full. `keys` are the provider's; `leeway` seconds of clock skew are
    /// allowed on `exp` and `iat`.
    public init(verifying token: String, keys: [JSONWebKey], issuer: String, clientID: String, nonce expectedNonce: String?,
                now: Date = Date(), leeway: TimeInterval = 60) throws(Failure) {
        let (header, claims, signed, signature) = try Self.parts(token)
        guard let declared = header["alg"] as? String else { throw .malformed }
        guard let algorithm = JSONWebKey.Algorithm(rawValue: declared) else { throw .algorithm(declared) }
        let id = header["kid"] as? String
        let candidates = keys.filter { $0.algorithm == algorithm && (id == nil || $0.id == id) }
        guard !candidates.isEmpty else { throw .unknownKey(id) }
        guard candidates.contains(where: { $0.verifies(signature, of: signed) }) else { throw .signature }

        guard let tokenIssuer = claims["iss"] as? String else { throw .malformed }
        guard tokenIssuer == issuer else { throw .issuer(tokenIssuer) }
        let audiences = (claims["aud"] as? String).map { [$0] } ?? (claims["aud"] as? [String]) ?? []
        guard audiences.contains(clientID) else { throw .audience }
        if audiences.count > 1, let party = claims["azp"] as? String, party != clientID { throw .audience }
        guard let expiry = Self.seconds(claims["exp"]) else { throw .malformed }
        guard now.timeIntervalSince1970 < expiry + leeway else { throw .expired }
        if let issued = Self.seconds(claims["iat"]), issued > now.timeIntervalSince1970 + leeway { throw .issuedInTheFuture }
        let nonce = claims["nonce"] as? String
        if let expectedNonce, nonce != expectedNonce { throw .nonce }
        guard let subject = claims["sub"] as? String, !subject.isEmpty, subject.utf8.count <= 255 else { throw .malformed }

        self.subject = subject
        email = (claims["email"] as? String).flatMap { $0.utf8.count <= 254 ? $0 : nil }
        // Some providers send the flag as a string.
        emailVerified = claims["email_verified"] as? Bool ?? ((claims["email_verified"] as? String) == "true")
        self.name = (claims["name"] as? String).map { String($0.prefix(100)) }
        preferredUsername = (claims["preferred_username"] as? String).map { String($0.prefix(100)) }
        self.nonce = nonce
        expires = Date(timeIntervalSince1970: expiry)
    }

    private static func parts(_ token: String) throws(Failure) -> (header: [String: Any], claims: [String: Any], signed: [UInt8], signature: [UInt8]) {
        let pieces = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= 16_384, pieces.count == 3,
              let headerBytes = Base64URL.decode(String(pieces[0])), let claimBytes = Base64URL.decode(String(pieces[1])),
              let signature = Base64URL.decode(String(pieces[2])),
              let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any],
              let claims = try? JSONSerialization.jsonObject(with: Data(claimBytes)) as? [String: Any]
        else { throw .malformed }
        return (header, claims, Array((pieces[0] + "." + pieces[1]).utf8), signature)
    }

    /// A NumericDate: a finite number of seconds in a sane range.
    private static func seconds(_ value: Any?) -> Double? {
        guard let seconds = (value as? NSNumber)?.doubleValue else { return nil }
        return seconds.isFinite && (0...1e11).contains(seconds) ? seconds : nil
    }
}
