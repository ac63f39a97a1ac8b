import Foundation

/// Sign in with Apple's client secret: a JWT (ES256) that Moim signs with the operator's key
/// from Apple's developer account, valid for five minutes, made for each token request.
public struct AppleClientSecret: Sendable {
    public let teamID: String
    public let keyID: String
    /// The `.p8` file's PEM text (a P-256 private key).
    let privateKey: String
    /// Seconds the secret is good for.
    static let lifetime = 300

    /// nil unless `privateKey` is a PEM P-256 private key OpenSSL can read.
    public init?(teamID: String, keyID: String, privateKey: String) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKey = privateKey
        guard P256Key(pem: privateKey) != nil else { return nil }
    }

    func token(clientID: String, now: Date) throws(OpenIDError) -> String {
        let seconds = now.timeIntervalSince1970.rounded(.down)
        let issued = Int(exactly: seconds) ?? 0  // nil for a clock that is not a number
        let header = ["alg": "ES256", "kid": keyID]
        let claims: [String: Any] = ["iss": teamID, "iat": issued, "exp": issued + Self.lifetime, "aud": "https://appleid.apple.com", "sub": clientID]
        guard let headerJSON = try? JSONSerialization.data(withJSONObject: header, options: .sortedKeys),
              let claimsJSON = try? JSONSerialization.data(withJSONObject: claims, options: .sortedKeys) else {
            throw .provider("cannot write Apple's client secret")
        }
        let signed = Base64URL.encode([UInt8](headerJSON)) + "." + Base64URL.encode([UInt8](claimsJSON))
        guard let signature = P256Key(pem: privateKey)?.sign(Array(signed.utf8)) else {
            throw .provider("cannot sign Apple's client secret with the key given")
        }
        return signed + "." + Base64URL.encode(signature)
    }
}
