import COpenSSL
import Foundation

/// A passkey authenticator in software, as a test's stand-in for a phone: its own key (P-256,
/// Ed25519 or RSA, made by OpenSSL), a credential id, a signature count, and the CBOR and
/// signatures a real one answers with.
public final class SoftAuthenticator: @unchecked Sendable {
    public enum Kind: Sendable { case es256, edDSA, rs256 }

    public let kind: Kind
    public let credentialID: [UInt8]
    /// Counted up on each assertion, unless it stays 0 (as many passkeys do).
    public var signCount: UInt32
    private let key: OpaquePointer

    public init(_ kind: Kind = .es256, signCount: UInt32 = 0) {
        self.kind = kind
        self.signCount = signCount
        credentialID = (0..<16).map { _ in UInt8.random(in: 0...255) }
        var made: OpaquePointer?
        switch kind {
        case .es256:
            let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil)
            _ = EVP_PKEY_keygen_init(context)
            _ = EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1)
            _ = EVP_PKEY_keygen(context, &made)
            EVP_PKEY_CTX_free(context)
        case .edDSA:
            let context = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil)
            _ = EVP_PKEY_keygen_init(context)
            _ = EVP_PKEY_keygen(context, &made)
            EVP_PKEY_CTX_free(context)
        case .rs256:
            let context = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, nil)
            _ = EVP_PKEY_keygen_init(context)
            _ = EVP_PKEY_CTX_set_rsa_keygen_bits(context, 2048)
            _ = EVP_PKEY_keygen(context, &made)
            EVP_PKEY_CTX_free(context)
        }
        key = made!
    }

    deinit { EVP_PKEY_free(key) }

    /// The public key as COSE, as the authenticator puts it in its attested data.
    public var coseKey: [UInt8] {
        let spki = subjectPublicKeyInfo
        switch kind {
        case .es256:
            let point = Array(spki.suffix(64))
            return Self.map([(.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)), (.int(-2), .bytes(Array(point.prefix(32)))),
                             (.int(-3), .bytes(Array(point.suffix(32))))])
        case .edDSA:
            return Self.map([(.int(1), .int(1)), (.int(3), .int(-8)), (.int(-1), .int(6)), (.int(-2), .bytes(Array(spki.suffix(32))))])
        case .rs256:
            var n: OpaquePointer?, e: OpaquePointer?
            _ = EVP_PKEY_get_bn_param(key, "n", &n)
            _ = EVP_PKEY_get_bn_param(key, "e", &e)
            defer { BN_free(n); BN_free(e) }
            return Self.map([(.int(1), .int(3)), (.int(3), .int(-257)), (.int(-1), .bytes(Self.bytes(n))), (.int(-2), .bytes(Self.bytes(e)))])
        }
    }

    /// `clientDataJSON` as a browser writes it.
    public static func clientData(type: String, challenge: [UInt8], origin: String) -> [UInt8] {
        let encoded = Data(challenge).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return Array(#"{"type":"\#(type)","challenge":"\#(encoded)","origin":"\#(origin)","crossOrigin":false}"#.utf8)
    }

    /// What `navigator.credentials.create` answers: client data and an attestation object.
    public func registration(challenge: [UInt8], origin: String, rpID: String, flags: UInt8 = 0x45,
                             format: String = "none") -> (clientData: [UInt8], attestation: [UInt8]) {
        let cose = coseKey
        let attested = [UInt8](repeating: 0, count: 16) + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)] + credentialID + cose
        let authData = Self.sha256(Array(rpID.utf8)) + [flags] + Self.be32(signCount) + attested
        let attestation = Self.map([(.text("fmt"), .text(format)), (.text("attStmt"), .raw([0xA0])), (.text("authData"), .bytes(authData))])
        return (Self.clientData(type: "webauthn.create", challenge: challenge, origin: origin), attestation)
    }

    /// What `navigator.credentials.get` answers, counting up.
    public func assertion(challenge: [UInt8], origin: String, rpID: String, flags: UInt8 = 0x05)
        -> (clientData: [UInt8], authenticatorData: [UInt8], signature: [UInt8]) {
        if signCount > 0 { signCount += 1 }
        let authData = Self.sha256(Array(rpID.utf8)) + [flags] + Self.be32(signCount)
        let clientData = Self.clientData(type: "webauthn.get", challenge: challenge, origin: origin)
        return (clientData, authData, sign(authData + Self.sha256(clientData)))
    }

    /// A signature as WebAuthn carries it: DER for ES256, PKCS #1 v1.5 for RS256, raw for EdDSA.
    public func sign(_ message: [UInt8]) -> [UInt8] {
        let context = EVP_MD_CTX_new()
        defer { EVP_MD_CTX_free(context) }
        _ = EVP_DigestSignInit(context, nil, kind == .edDSA ? nil : EVP_sha256(), nil, key)
        var length = 0
        _ = EVP_DigestSign(context, nil, &length, message, message.count)
        var signature = [UInt8](repeating: 0, count: length)
        _ = EVP_DigestSign(context, &signature, &length, message, message.count)
        return Array(signature.prefix(length))
    }

    private var subjectPublicKeyInfo: [UInt8] {
        let length = i2d_PUBKEY(key, nil)
        var der = [UInt8](repeating: 0, count: Int(length))
        der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_PUBKEY(key, &cursor)
        }
        return der
    }

    private static func bytes(_ number: OpaquePointer?) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(number) + 7) / 8))
        _ = BN_bn2bin(number, &bytes)
        return bytes
    }

    private static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        _ = SHA256(bytes, bytes.count, &digest)
        return digest
    }

    private static func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * (3 - $0))) } }

    // MARK: - CBOR, as much as answers need

    enum Item { case int(Int), bytes([UInt8]), text(String), raw([UInt8]) }

    static func map(_ pairs: [(Item, Item)]) -> [UInt8] {
        head(5, UInt64(pairs.count)) + pairs.flatMap { encode($0.0) + encode($0.1) }
    }

    static func encode(_ item: Item) -> [UInt8] {
        switch item {
        case .int(let value): value >= 0 ? head(0, UInt64(value)) : head(1, UInt64(-1 - value))
        case .bytes(let bytes): head(2, UInt64(bytes.count)) + bytes
        case .text(let text): head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .raw(let bytes): bytes
        }
    }

    static func head(_ major: UInt8, _ value: UInt64) -> [UInt8] {
        switch value {
        case 0..<24: [major << 5 | UInt8(value)]
        case 24..<256: [major << 5 | 24, UInt8(value)]
        case 256..<65_536: [major << 5 | 25, UInt8(value >> 8), UInt8(value & 0xFF)]
        default: [major << 5 | 26] + (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * (3 - $0))) }
        }
    }
}
