import COpenSSL
import Foundation
@testable import Network
import Testing
import TestSupport

/// ID tokens made here with keys `openssl` generates, checked as a provider's would be: the
/// good ones pass, and each way a token can be forged, misdirected or stale is refused.
struct IDTokenTests {
    /// A key pair: the private key's PEM for signing, and its public half as a JWK.
    struct Key {
        let pem: String
        let jwk: [String: Any]
        let algorithm: String

        static func make(_ algorithm: String, id: String) throws -> Key {
            let folder = NSTemporaryDirectory() + "moim-jwk-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/key.pem"
            if algorithm == "RS256" {
                _ = try runTool("/usr/bin/openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", path])
                let modulus = try runTool("/usr/bin/openssl", ["rsa", "-in", path, "-noout", "-modulus"]).output
                let hex = modulus.split(separator: "=").last.map(String.init)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
                let n = stride(from: 0, to: hex.count, by: 2).compactMap { offset -> UInt8? in
                    let start = hex.index(hex.startIndex, offsetBy: offset)
                    return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
                }
                return Key(pem: try String(contentsOfFile: path, encoding: .utf8),
                           jwk: ["kty": "RSA", "kid": id, "n": Base64URL.encode(n), "e": "AQAB", "use": "sig"], algorithm: algorithm)
            }
            _ = try runTool("/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path])
            _ = try runTool("/usr/bin/openssl", ["pkey", "-in", path, "-pubout", "-outform", "DER", "-out", folder + "/public.der"])
            let point = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/public.der")).suffix(64))
            return Key(pem: try String(contentsOfFile: path, encoding: .utf8),
                       jwk: ["kty": "EC", "crv": "P-256", "kid": id, "x": Base64URL.encode(Array(point.prefix(32))), "y": Base64URL.encode(Array(point.suffix(32)))],
                       algorithm: algorithm)
        }

        var publicKey: JSONWebKey { JSONWebKey(jwk)! }

        /// A JWT of `claims` signed with this key (or claiming `algorithm` in its header).
        func sign(_ claims: [String: Any], header: [String: Any]? = nil) -> String {
            let head = header ?? ["alg": algorithm, "kid": jwk["kid"] ?? "", "typ": "JWT"]
            let signed = Base64URL.encode([UInt8](try! JSONSerialization.data(withJSONObject: head)))
                + "." + Base64URL.encode([UInt8](try! JSONSerialization.data(withJSONObject: claims)))
            return signed + "." + Base64URL.encode(signature(Array(signed.utf8)))
        }

        private func signature(_ message: [UInt8]) -> [UInt8] {
            let bytes = Array(pem.utf8)
            let key = bytes.withUnsafeBytes { raw -> OpaquePointer? in
                let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count))
                defer { BIO_free(bio) }
                return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
            }
            defer { EVP_PKEY_free(key) }
            let context = EVP_MD_CTX_new()
            defer { EVP_MD_CTX_free(context) }
            EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key)
            var length = 0
            EVP_DigestSign(context, nil, &length, message, message.count)
            var signature = [UInt8](repeating: 0, count: length)
            EVP_DigestSign(context, &signature, &length, message, message.count)
            signature = Array(signature.prefix(length))
            return algorithm == "ES256" ? DER.rawSignature(signature)! : signature
        }
    }

    static let issuer = "https://sso.example.org"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static func claims(_ changes: [String: Any] = [:]) -> [String: Any] {
        var claims: [String: Any] = ["iss": issuer, "aud": "moim", "sub": "user-42", "exp": 1_800_000_300, "iat": 1_800_000_000,
                                     "nonce": "n-0S6_WzA2Mj", "email": "mina@example.org", "email_verified": true, "name": "Mina Kim"]
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    func check(_ token: String, keys: [JSONWebKey], nonce: String = "n-0S6_WzA2Mj") throws(IDToken.Failure) -> IDToken {
        try IDToken(verifying: token, keys: keys, issuer: Self.issuer, clientID: "moim", nonce: nonce, now: Self.now)
    }

    @Test(arguments: ["RS256", "ES256"])
    func aTokenSignedByTheProvidersKeyForThisClientIsAccepted(algorithm: String) throws {
        let key = try Key.make(algorithm, id: "k1")
        let token = try check(key.sign(Self.claims()), keys: [key.publicKey])
        #expect(token.subject == "user-42" && token.email == "mina@example.org" && token.emailVerified && token.name == "Mina Kim")
    }

    @Test func forgedMisdirectedAndStaleTokensAreRefused() throws {
        let key = try Key.make("RS256", id: "k1"), other = try Key.make("RS256", id: "k1"), ec = try Key.make("ES256", id: "e1")
        let keys = [key.publicKey, ec.publicKey]
        // Signed by a key that claims the provider's key id.
        #expect(throws: IDToken.Failure.signature) { try check(other.sign(Self.claims()), keys: keys) }
        // alg "none", and HMAC with the public key as the secret: never.
        let unsigned = key.sign(Self.claims(), header: ["alg": "none", "kid": "k1"]).split(separator: ".").prefix(2).joined(separator: ".") + "."
        #expect(throws: IDToken.Failure.algorithm("none")) { try check(unsigned, keys: keys) }
        #expect(throws: IDToken.Failure.algorithm("HS256")) { try check(key.sign(Self.claims(), header: ["alg": "HS256", "kid": "k1"]), keys: keys) }
        // An ES256 token naming the RSA key's id finds no key of its kind.
        #expect(throws: IDToken.Failure.unknownKey("k1")) { try check(ec.sign(Self.claims(), header: ["alg": "ES256", "kid": "k1"]), keys: keys) }
        #expect(throws: IDToken.Failure.unknownKey("k9")) { try check(key.sign(Self.claims(), header: ["alg": "RS256", "kid": "k9"]), keys: keys) }
        // A changed claim breaks the signature.
        let parts = key.sign(Self.claims()).split(separator: ".").map(String.init)
        let changed = Base64URL.encode([UInt8](try JSONSerialization.data(withJSONObject: Self.claims(["sub": "admin"]))))
        #expect(throws: IDToken.Failure.signature) { try check([parts[0], changed, parts[2]].joined(separator: "."), keys: keys) }
        // Right key, wrong party or time.
        #expect(throws: IDToken.Failure.audience) { try check(key.sign(Self.claims(["aud": "someone-else"])), keys: keys) }
        #expect(throws: IDToken.Failure.audience) { try check(key.sign(Self.claims(["aud": ["moim", "other"], "azp": "other"])), keys: keys) }
        #expect(throws: IDToken.Failure.issuer("https://evil.example")) { try check(key.sign(Self.claims(["iss": "https://evil.example"])), keys: keys) }
        #expect(throws: IDToken.Failure.expired) { try check(key.sign(Self.claims(["exp": 1_799_999_000])), keys: keys) }
        #expect(throws: IDToken.Failure.issuedInTheFuture) { try check(key.sign(Self.claims(["iat": 1_800_003_600])), keys: keys) }
        #expect(throws: IDToken.Failure.nonce) { try check(key.sign(Self.claims()), keys: keys, nonce: "another") }
        #expect(throws: IDToken.Failure.nonce) { try check(key.sign(Self.claims(["nonce": NSNull()])), keys: keys) }
        for junk in ["", "a.b", "a.b.c", "..", String(repeating: "x", count: 20_000), "eyJhbGciOiJSUzI1NiJ9.e30.%%%"] {
            #expect(throws: IDToken.Failure.malformed) { try check(junk, keys: keys) }
        }
    }

    @Test func keysAProviderPublishesButMoimCannotTrustAreLeftOut() throws {
        let key = try Key.make("RS256", id: "k1")
        var small = key.jwk
        small["n"] = Base64URL.encode([UInt8](repeating: 0xC5, count: 128))  // 1024 bits
        var encryption = key.jwk
        encryption["use"] = "enc"
        var mislabelled = key.jwk
        mislabelled["alg"] = "ES256"
        let document = try JSONSerialization.data(withJSONObject: ["keys": [key.jwk, small, encryption, mislabelled, ["kty": "oct", "k": "c2VjcmV0"]]])
        #expect(JSONWebKey.set([UInt8](document)).count == 1)
        #expect(JSONWebKey.set(Array("not json".utf8)).isEmpty)
    }

    @Test func applesClientSecretVerifiesWithTheKeysPublicHalf() throws {
        let key = try Key.make("ES256", id: "ABC123DEFG")
        let signer = try #require(AppleClientSecret(teamID: "TEAM123456", keyID: "ABC123DEFG", privateKey: key.pem))
        let secret = try signer.token(clientID: "org.example.moim", now: Self.now)
        let parts = secret.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(key.publicKey.verifies(signature, of: Array((parts[0] + "." + parts[1]).utf8)))
        let headerBytes = try #require(Base64URL.decode(parts[0])), claimBytes = try #require(Base64URL.decode(parts[1]))
        let header = try #require(try JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any])
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(claimBytes)) as? [String: Any])
        #expect(header["alg"] as? String == "ES256" && header["kid"] as? String == "ABC123DEFG")
        #expect(claims["iss"] as? String == "TEAM123456" && claims["sub"] as? String == "org.example.moim")
        #expect(claims["aud"] as? String == "https://appleid.apple.com")
        #expect((claims["exp"] as? Int ?? 0) - (claims["iat"] as? Int ?? 0) == 300)
        // An RSA key or junk is not an Apple key.
        #expect(AppleClientSecret(teamID: "T", keyID: "K", privateKey: try Key.make("RS256", id: "r").pem) == nil)
        #expect(AppleClientSecret(teamID: "T", keyID: "K", privateKey: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n") == nil)
    }
}
