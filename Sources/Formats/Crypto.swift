import CSodium
import Foundation

/// The few primitives Moim needs from libsodium.
public enum Crypto {
    private static let ready: Bool = sodium_init() >= 0

    /// `count` bytes from the kernel's CSPRNG.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        precondition(ready, "libsodium failed to initialise")
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return bytes
    }

    /// A random token of `count` bytes, base64url without padding (43 characters for 32 bytes).
    public static func randomToken(_ count: Int = 32) -> String {
        base64URL(randomBytes(count))
    }

    /// SHA-256 of data that arrives in pieces (a file read in chunks).
    public struct SHA256 {
        private var state = crypto_hash_sha256_state()

        public init() {
            precondition(Crypto.ready, "libsodium failed to initialise")
            crypto_hash_sha256_init(&state)
        }

        public mutating func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            crypto_hash_sha256_update(&state, base, UInt64(bytes.count))
        }

        /// The digest in lowercase hexadecimal.
        public mutating func hex() -> String {
            var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
            crypto_hash_sha256_final(&state, &digest)
            return digest.map { String(format: "%02x", $0) }.joined()
        }
    }

    public static func sha256(_ bytes: [UInt8]) -> Data {
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        crypto_hash_sha256(&digest, bytes, UInt64(bytes.count))
        return Data(digest)
    }

    /// Compares in time that depends only on the length, not on where the inputs differ.
    public static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count, !x.isEmpty else { return false }
        return sodium_memcmp(x, y, x.count) == 0
    }

    private static let base64URLAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Base64url without padding (RFC 4648 §5).
    public static func base64URL(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for (offset, byte) in chunk.enumerated() { value |= Int(byte) << (16 - 8 * offset) }
            for position in 0...chunk.count {
                output.append(base64URLAlphabet[(value >> (18 - 6 * position)) & 63])
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    public static func decodeBase64URL(_ text: String) -> [UInt8]? {
        guard text.utf8.count <= 128, text.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        var output = [UInt8](repeating: 0, count: 96)
        var length = 0
        let status = text.utf8CString.withUnsafeBufferPointer { input in
            sodium_base642bin(&output, output.count, input.baseAddress, input.count - 1, nil, &length, nil,
                              sodium_base64_VARIANT_URLSAFE_NO_PADDING)
        }
        guard status == 0, (0...output.count).contains(length) else { return nil }
        return Array(output.prefix(length))
    }
}
