import COpenSSL
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
        guard let key = Self.key(privateKey) else { return nil }
        EVP_PKEY_free(key)
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
        guard let signature = sign(Array(signed.utf8)) else { throw .provider("cannot sign Apple's client secret with the key given") }
        return signed + "." + Base64URL.encode(signature)
    }

    /// ES256: ECDSA over SHA-256, as JOSE's 64 bytes r ‖ s.
    private func sign(_ message: [UInt8]) -> [UInt8]? {
        guard let key = Self.key(privateKey) else { return nil }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { return nil }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1, (8...80).contains(length) else { return nil }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &der, &length, message, message.count) == 1 else { return nil }
        return DER.rawSignature(Array(der.prefix(length)))
    }

    private static func key(_ pem: String) -> OpaquePointer? {
        let bytes = Array(pem.utf8)
        guard let count = Int32(exactly: bytes.count), count <= 65_536 else { return nil }
        // The BIO reads the buffer in place: all of it happens inside the closure.
        let read = bytes.withUnsafeBytes { raw -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, count) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let key = read else { return nil }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == 256 else {
            EVP_PKEY_free(key)
            return nil
        }
        return key
    }
}
