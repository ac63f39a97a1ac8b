import COpenSSL
import Foundation

/// A P-256 key pair: the server's VAPID key (RFC 8292), the one-time key each pushed message is
/// encrypted with (RFC 8291), or the `.p8` key Sign in with Apple's client secret is signed
/// with. The private half leaves only as PKCS#8 DER, to be kept in the database so that every
/// server of a site signs with the same key.
public final class P256Key: @unchecked Sendable {
    let key: OpaquePointer
    /// The public key as the Push API gives it: 65 bytes, uncompressed (0x04 ‖ x ‖ y).
    public let publicKey: [UInt8]

    private init?(taking key: OpaquePointer) {
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == 256,
              let point = Self.encodedPublicKey(key), point.count == 65 else {
            EVP_PKEY_free(key)
            return nil
        }
        self.key = key
        publicKey = point
    }

    deinit { EVP_PKEY_free(key) }

    /// A new random key pair.
    public static func generate() -> P256Key? {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
              EVP_PKEY_keygen(context, &key) == 1, let key else { return nil }
        return P256Key(taking: key)
    }

    /// The key kept as PKCS#8 DER; nil unless it is a P-256 private key.
    public convenience init?(privateKey der: [UInt8]) {
        guard !der.isEmpty, der.count <= 4_096, let length = Int(exactly: der.count) else { return nil }
        let read = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, length)
        }
        guard let read else { return nil }
        self.init(taking: read)
    }

    /// A PEM private key (Apple's `.p8`); nil unless it is P-256.
    public convenience init?(pem: String) {
        let bytes = Array(pem.utf8)
        guard let count = Int32(exactly: bytes.count), count <= 65_536 else { return nil }
        // The BIO reads the buffer in place: all of it happens inside the closure.
        let read = bytes.withUnsafeBytes { raw -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, count) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let read else { return nil }
        self.init(taking: read)
    }

    /// PKCS#8 DER of the private key.
    public var privateKey: [UInt8] {
        let length = i2d_PrivateKey(key, nil)
        guard length > 0 else { return [] }
        var der = [UInt8](repeating: 0, count: Int(length))
        der.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            _ = i2d_PrivateKey(key, &cursor)
        }
        return der
    }

    /// ECDH with a browser's public key (65 bytes, uncompressed, on P-256); nil for anything else.
    func sharedSecret(with peer: [UInt8]) -> [UInt8]? {
        guard peer.count == 65, peer[0] == 4, let peerKey = Self.publicKey(peer) else { return nil }
        defer { EVP_PKEY_free(peerKey) }
        guard let context = EVP_PKEY_CTX_new(key, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var length = 0
        guard EVP_PKEY_derive_init(context) == 1, EVP_PKEY_derive_set_peer(context, peerKey) == 1,
              EVP_PKEY_derive(context, nil, &length) == 1, length == 32 else { return nil }
        var secret = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_derive(context, &secret, &length) == 1, length == 32 else { return nil }
        return secret
    }

    /// ES256 over `message`, as JOSE's 64 bytes r ‖ s.
    func sign(_ message: [UInt8]) -> [UInt8]? {
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { return nil }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1, (8...80).contains(length) else { return nil }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &der, &length, message, message.count) == 1 else { return nil }
        return DER.rawSignature(Array(der.prefix(length)))
    }

    /// Whether `bytes` is a point on P-256, uncompressed: what a browser's `p256dh` must be.
    public static func isValidPublicKey(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 65, bytes[0] == 4, let key = publicKey(bytes) else { return false }
        EVP_PKEY_free(key)
        return true
    }

    /// The key of an encoded point on P-256, checked to lie on the curve; OpenSSL 3's way
    /// (`EVP_PKEY_fromdata`), as its `EC_KEY` functions are deprecated.
    private static func publicKey(_ bytes: [UInt8]) -> OpaquePointer? {
        guard let builder = OSSL_PARAM_BLD_new() else { return nil }
        defer { OSSL_PARAM_BLD_free(builder) }
        // The builder keeps pointers to what it is given until `to_param`: the names are
        // static, and the point is read inside the closure that lends it.
        let built = bytes.withUnsafeBufferPointer { point -> UnsafeMutablePointer<OSSL_PARAM>? in
            guard OSSL_PARAM_BLD_push_utf8_string(builder, cString("group"), cString("prime256v1"), 0) == 1,
                  OSSL_PARAM_BLD_push_octet_string(builder, cString("pub"), point.baseAddress, point.count) == 1
            else { return nil }
            return OSSL_PARAM_BLD_to_param(builder)
        }
        guard let parameters = built else { return nil }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1, EVP_PKEY_fromdata(context, &key, moim_EVP_PKEY_PUBLIC_KEY, parameters) == 1,
              let key
        else { return nil }
        guard let check = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else {
            EVP_PKEY_free(key)
            return nil
        }
        defer { EVP_PKEY_CTX_free(check) }
        guard EVP_PKEY_public_check(check) == 1 else {
            EVP_PKEY_free(key)
            return nil
        }
        return key
    }

    /// A literal's bytes as a C string, valid for as long as the program runs.
    private static func cString(_ literal: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    private static func encodedPublicKey(_ key: OpaquePointer) -> [UInt8]? {
        var pointer: UnsafeMutablePointer<UInt8>?
        let length = EVP_PKEY_get1_encoded_public_key(key, &pointer)
        guard let pointer else { return nil }
        defer { moim_OPENSSL_free(pointer) }
        return Array(UnsafeBufferPointer(start: pointer, count: length))
    }
}
