import COpenSSL
import Foundation

/// Encrypts a message for one browser, as RFC 8291 says (Message Encryption for Web Push),
/// in RFC 8188's `aes128gcm` content coding: one record, the sender's one-time public key in
/// its header, padded with the last-record delimiter.
public enum WebPushEncryption {
    /// RFC 8188's record size: one record holds every message Moim sends.
    static let recordSize = 4_096
    /// The most plaintext one record holds (record size less the tag and the delimiter).
    public static let maximumPlaintext = recordSize - 16 - 1

    public enum Failure: Error, Equatable {
        case badKey, tooLong, crypto
    }

    /// `plaintext` for the browser whose subscription gave `p256dh` (65 bytes) and `auth` (16).
    /// `sender` and `salt` are new for every message; tests pass their own.
    public static func encrypt(_ plaintext: [UInt8], p256dh: [UInt8], auth: [UInt8], sender: P256Key? = nil, salt: [UInt8]? = nil)
        throws(Failure) -> [UInt8]
    {
        guard auth.count == 16 else { throw .badKey }
        guard plaintext.count <= maximumPlaintext else { throw .tooLong }
        guard let sender = sender ?? P256Key.generate() else { throw .crypto }
        guard let shared = sender.sharedSecret(with: p256dh) else { throw .badKey }
        let salt = salt ?? random(16)
        guard salt.count == 16 else { throw .crypto }
        // RFC 8291 §3.4: the key material, from the ECDH secret and the authentication secret.
        let keyInfo = Array("WebPush: info".utf8) + [0] + p256dh + sender.publicKey
        let ikm = hkdf(salt: auth, secret: shared, info: keyInfo, length: 32)
        // RFC 8188 §2.2: the content encryption key and nonce.
        let cek = hkdf(salt: salt, secret: ikm, info: Array("Content-Encoding: aes128gcm".utf8) + [0], length: 16)
        let nonce = hkdf(salt: salt, secret: ikm, info: Array("Content-Encoding: nonce".utf8) + [0], length: 12)
        guard let sealed = seal(plaintext + [2], key: cek, nonce: nonce) else { throw .crypto }
        let size = UInt32(recordSize)
        let header = salt + [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + [UInt8(sender.publicKey.count)] + sender.publicKey
        return header + sealed
    }

    /// HKDF-SHA-256 (RFC 5869) for outputs of one block, which is all Web Push needs.
    static func hkdf(salt: [UInt8], secret: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        let prk = Signatures.hmacSHA256(key: salt, message: secret)
        return Array(Signatures.hmacSHA256(key: prk, message: info + [1]).prefix(length))
    }

    /// AES-128-GCM: the ciphertext followed by its 16-byte tag.
    static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8]? {
        guard let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        guard EVP_EncryptInit_ex(context, EVP_aes_128_gcm(), nil, key, nonce) == 1 else { return nil }
        var output = [UInt8](repeating: 0, count: plaintext.count + 16)
        var written: Int32 = 0, finished: Int32 = 0
        guard let count = Int32(exactly: plaintext.count),
              EVP_EncryptUpdate(context, &output, &written, plaintext, count) == 1,
              output.withUnsafeMutableBufferPointer({ buffer in
                  guard let base = buffer.baseAddress else { return 0 }
                  return EVP_EncryptFinal_ex(context, base + Int(written), &finished)
              }) == 1
        else { return nil }
        var tag = [UInt8](repeating: 0, count: 16)
        guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, &tag) == 1 else { return nil }
        return Array(output.prefix(Int(written + finished))) + tag
    }

    static func random(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        _ = RAND_bytes(&bytes, Int32(count))
        return bytes
    }
}

/// The server's identity to push services (RFC 8292): a JWT signed with its VAPID key, valid
/// for the push service's origin for up to 24 hours, naming who to contact.
public struct VAPID: Sendable {
    public let key: P256Key
    /// `mailto:` or `https:` address a push service can reach the operator at.
    public let subject: String

    public init(key: P256Key, subject: String) {
        self.key = key
        self.subject = subject
    }

    /// The `Authorization` header's value for a push to `endpoint`'s origin, valid 12 hours from `now`.
    public func authorization(audience: String, now: Date) -> String? {
        let issued = UnixTime.seconds(now) ?? 0
        let header = JSONText.object(["typ": .string("JWT"), "alg": .string("ES256")]).rendered
        let claims = JSONText.object(["aud": .string(audience), "exp": .integer(issued + 12 * 3_600), "sub": .string(subject)]).rendered
        let signed = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        guard let signature = key.sign(Array(signed.utf8)) else { return nil }
        return "vapid t=\(signed).\(Base64URL.encode(signature)), k=\(Base64URL.encode(key.publicKey))"
    }
}
