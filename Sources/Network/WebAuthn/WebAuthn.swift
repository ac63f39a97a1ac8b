import COpenSSL
import Foundation

/// Passkeys (WebAuthn level 2) checked in Swift with OpenSSL: ES256, RS256 and EdDSA keys,
/// attestation "none", the relying party's id and origin, single-use challenges (the caller
/// keeps them), user presence and verification, and a signature counter that never goes back.
public enum WebAuthn {
    public enum Failure: Error, Equatable {
        case malformed(String)
        case wrongType, wrongChallenge, wrongOrigin, wrongRelyingParty
        case notPresent, notVerified
        case unsupportedAttestation(String)
        case unsupportedKey
        case badSignature
        case counterWentBack
    }

    /// Who asks: the site's host (`moim.example`) and its origin (`https://moim.example`).
    public struct RelyingParty: Sendable, Equatable {
        public let id: String
        public let origin: String

        public init(id: String, origin: String) {
            self.id = id
            self.origin = origin
        }
    }

    /// A passkey as registration found it: what to store.
    public struct NewCredential: Sendable, Equatable {
        public let id: [UInt8]
        /// The COSE key as the authenticator gave it.
        public let publicKey: [UInt8]
        public let algorithm: PasskeyKey.Algorithm
        public let signCount: UInt32
    }

    /// The challenge inside `clientDataJSON`, once its type and origin are right: what the
    /// caller looks up (and uses up) among the challenges it gave.
    public static func challenge(in clientDataJSON: [UInt8], type: String, party: RelyingParty) throws(Failure) -> [UInt8] {
        guard clientDataJSON.count <= 4_096,
              let json = try? JSONSerialization.jsonObject(with: Data(clientDataJSON)) as? [String: Any] else { throw .malformed("clientDataJSON") }
        guard json["type"] as? String == type else { throw .wrongType }
        guard json["origin"] as? String == party.origin, json["crossOrigin"] as? Bool != true else { throw .wrongOrigin }
        guard let text = json["challenge"] as? String, let challenge = Base64URL.decode(text), (16...64).contains(challenge.count) else {
            throw .wrongChallenge
        }
        return challenge
    }

    /// Checks a registration (`navigator.credentials.create`) whose challenge the caller
    /// already matched and used up.
    public static func register(clientDataJSON: [UInt8], attestationObject: [UInt8], party: RelyingParty) throws(Failure) -> NewCredential {
        _ = try challenge(in: clientDataJSON, type: "webauthn.create", party: party)
        let attestation: CBOR
        do { attestation = try CBOR.decodeWhole(attestationObject) } catch { throw .malformed("attestationObject") }
        guard let format = attestation["fmt"]?.textString else { throw .malformed("fmt") }
        guard format == "none", attestation["attStmt"] == .map([]) else { throw .unsupportedAttestation(format) }
        guard let authData = attestation["authData"]?.byteString else { throw .malformed("authData") }
        let data = try AuthenticatorData(authData)
        try data.check(party, requireVerified: true)
        guard let id = data.credentialID, let keyBytes = data.publicKey else { throw .malformed("attested credential data") }
        let key = try PasskeyKey(cose: keyBytes)
        return NewCredential(id: id, publicKey: keyBytes, algorithm: key.algorithm, signCount: data.signCount)
    }

    /// Checks a sign-in (`navigator.credentials.get`) by the stored key, whose challenge the
    /// caller already matched and used up; returns the new signature count to store.
    public static func authenticate(clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], publicKey: [UInt8],
                                    storedCount: UInt32, party: RelyingParty) throws(Failure) -> UInt32 {
        _ = try challenge(in: clientDataJSON, type: "webauthn.get", party: party)
        let data = try AuthenticatorData(authenticatorData)
        try data.check(party, requireVerified: true)
        let key = try PasskeyKey(cose: publicKey)
        let message = authenticatorData + Array(sha256(clientDataJSON))
        guard key.verifies(signature, of: message) else { throw .badSignature }
        // A count that does not grow means a copied authenticator; one that stays 0 counts nothing.
        if data.signCount != 0 || storedCount != 0, data.signCount <= storedCount { throw .counterWentBack }
        return data.signCount
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        _ = SHA256(bytes, bytes.count, &digest)
        return digest
    }
}

/// The authenticator's data (WebAuthn §6.1): the relying party's hash, flags, the signature
/// count, and at registration the credential and its key.
public struct AuthenticatorData: Equatable, Sendable {
    public let rpIDHash: [UInt8]
    public let flags: UInt8
    public let signCount: UInt32
    public let credentialID: [UInt8]?
    public let publicKey: [UInt8]?

    public var userPresent: Bool { flags & 0x01 != 0 }
    public var userVerified: Bool { flags & 0x04 != 0 }

    public init(_ bytes: [UInt8]) throws(WebAuthn.Failure) {
        guard bytes.count >= 37 else { throw .malformed("authenticator data") }
        rpIDHash = Array(bytes[0..<32])
        flags = bytes[32]
        signCount = bytes[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        var rest = bytes[37...]
        if flags & 0x40 != 0 {
            // aaguid (16), credential id length (2), the id, then the COSE key.
            guard rest.count >= 18 else { throw .malformed("attested credential data") }
            let length = Int(rest[rest.startIndex + 16]) << 8 | Int(rest[rest.startIndex + 17])
            rest = rest.dropFirst(18)
            guard length >= 1, length <= 1_023, rest.count >= length else { throw .malformed("credential id") }
            credentialID = Array(rest.prefix(length))
            rest = rest.dropFirst(length)
            let (_, after): (CBOR, ArraySlice<UInt8>)
            do { (_, after) = try CBOR.decode(rest) } catch { throw .malformed("credential public key") }
            publicKey = Array(rest.prefix(rest.count - after.count))
            rest = after
        } else {
            credentialID = nil
            publicKey = nil
        }
        if flags & 0x80 != 0 {
            do { rest = try CBOR.decode(rest).rest } catch { throw .malformed("extensions") }
        }
        guard rest.isEmpty else { throw .malformed("authenticator data has bytes left over") }
    }

    func check(_ party: WebAuthn.RelyingParty, requireVerified: Bool) throws(WebAuthn.Failure) {
        guard rpIDHash == WebAuthn.sha256(Array(party.id.utf8)) else { throw .wrongRelyingParty }
        guard userPresent else { throw .notPresent }
        guard userVerified || !requireVerified else { throw .notVerified }
    }
}

/// A passkey's public key, read from COSE (RFC 9053): P-256 for ES256, RSA for RS256,
/// Ed25519 for EdDSA; nothing else.
public struct PasskeyKey: Equatable, Sendable {
    public enum Algorithm: Int64, Sendable, CaseIterable {
        case es256 = -7, edDSA = -8, rs256 = -257
    }

    public let algorithm: Algorithm
    /// As DER SubjectPublicKeyInfo, as OpenSSL reads it.
    let publicKeyInfo: [UInt8]

    public init(cose bytes: [UInt8]) throws(WebAuthn.Failure) {
        let key: CBOR
        do { key = try CBOR.decodeWhole(bytes) } catch { throw .malformed("COSE key") }
        guard let number = key[3]?.integer, let algorithm = Algorithm(rawValue: number) else { throw .unsupportedKey }
        self.algorithm = algorithm
        switch (algorithm, key[1]?.integer) {
        case (.es256, 2):
            guard key[-1]?.integer == 1, let x = key[-2]?.byteString, let y = key[-3]?.byteString, x.count == 32, y.count == 32 else {
                throw .unsupportedKey
            }
            publicKeyInfo = DER.sequence(DER.sequence(DER.ecPublicKey, DER.prime256v1), DER.bitString([0x04] + x + y))
        case (.rs256, 3):
            guard let n = key[-1]?.byteString, let e = key[-2]?.byteString, (256...1024).contains(n.drop { $0 == 0 }.count), (1...8).contains(e.count) else {
                throw .unsupportedKey
            }
            publicKeyInfo = DER.sequence(DER.sequence(DER.rsaEncryption, DER.null), DER.bitString(DER.sequence(DER.integer(n), DER.integer(e))))
        case (.edDSA, 1):
            guard key[-1]?.integer == 6, let x = key[-2]?.byteString, x.count == 32 else { throw .unsupportedKey }
            publicKeyInfo = DER.sequence(DER.sequence(DER.ed25519), DER.bitString(x))
        default:
            throw .unsupportedKey
        }
        // OpenSSL must take it (a point on the curve, a sane RSA key).
        guard withKey({ _ in true }) == true else { throw .unsupportedKey }
    }

    /// Whether `signature` (DER for ES256, PKCS #1 v1.5 for RS256, 64 bytes for EdDSA) signs `message`.
    public func verifies(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        withKey { key in
            guard let context = EVP_MD_CTX_new() else { return false }
            defer { EVP_MD_CTX_free(context) }
            // EdDSA hashes inside: no digest of its own.
            guard EVP_DigestVerifyInit(context, nil, algorithm == .edDSA ? nil : EVP_sha256(), nil, key) == 1 else { return false }
            return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
        } ?? false
    }

    private func withKey<T>(_ body: (OpaquePointer) -> T) -> T? {
        let key: OpaquePointer? = publicKeyInfo.withUnsafeBufferPointer { buffer in
            var start = buffer.baseAddress
            return d2i_PUBKEY(nil, &start, buffer.count)
        }
        guard let key else { return nil }
        defer { EVP_PKEY_free(key) }
        return body(key)
    }
}
