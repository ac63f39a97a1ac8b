import COpenSSL
import Foundation

/// A public key from a provider's JWKS document (RFC 7517) that can check ID tokens: RSA
/// (`n`, `e`; 2048 to 8192 bits) for RS256, or P-256 (`x`, `y`) for ES256. Anything else is
/// not a key Moim will trust.
public struct JSONWebKey: Sendable {
    public enum Algorithm: String, Sendable {
        case rs256 = "RS256", es256 = "ES256"
    }

    public let id: String?
    public let algorithm: Algorithm
    /// The key as DER SubjectPublicKeyInfo, as OpenSSL reads it.
    let publicKeyInfo: [UInt8]

    public init?(_ json: [String: Any]) {
        guard (json["use"] as? String ?? "sig") == "sig" else { return nil }
        id = json["kid"] as? String
        switch json["kty"] as? String {
        case "RSA":
            guard let n = (json["n"] as? String).flatMap(Base64URL.decode), let e = (json["e"] as? String).flatMap(Base64URL.decode),
                  (256...1024).contains(n.drop { $0 == 0 }.count), (1...8).contains(e.count) else { return nil }
            algorithm = .rs256
            publicKeyInfo = DER.sequence(DER.sequence(DER.rsaEncryption, DER.null), DER.bitString(DER.sequence(DER.integer(n), DER.integer(e))))
        case "EC":
            guard json["crv"] as? String == "P-256", let x = (json["x"] as? String).flatMap(Base64URL.decode),
                  let y = (json["y"] as? String).flatMap(Base64URL.decode), x.count == 32, y.count == 32 else { return nil }
            algorithm = .es256
            publicKeyInfo = DER.sequence(DER.sequence(DER.ecPublicKey, DER.prime256v1), DER.bitString([0x04] + x + y))
        default:
            return nil
        }
        if let declared = json["alg"] as? String, declared != algorithm.rawValue { return nil }
    }

    /// The keys of a JWKS document (`{"keys": [...]}`) that Moim can use.
    public static func set(_ document: [UInt8]) -> [JSONWebKey] {
        guard let json = try? JSONSerialization.jsonObject(with: Data(document)) as? [String: Any],
              let keys = json["keys"] as? [[String: Any]] else { return [] }
        return keys.prefix(100).compactMap(JSONWebKey.init)
    }

    /// Whether `signature` (JOSE's form: PKCS #1 v1.5 for RS256, r ‖ s for ES256) signs
    /// `message` with SHA-256 under this key.
    public func verifies(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        var signature = signature
        if algorithm == .es256 {
            // OpenSSL takes ECDSA signatures as DER.
            guard signature.count == 64 else { return false }
            signature = DER.sequence(DER.integer(Array(signature[..<32])), DER.integer(Array(signature[32...])))
        }
        let key: OpaquePointer? = publicKeyInfo.withUnsafeBufferPointer { buffer in
            var start = buffer.baseAddress
            return d2i_PUBKEY(nil, &start, buffer.count)
        }
        guard let key else { return false }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }
}

/// base64url without padding (RFC 7515 §2), as JOSE writes it.
public enum Base64URL {
    public static func decode(_ text: String) -> [UInt8]? {
        guard text.utf8.count <= 1 << 20, text.utf8.allSatisfy({ $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }

    public static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
