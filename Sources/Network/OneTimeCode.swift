import COpenSSL
import Foundation

/// One-time codes as authenticator apps make them (RFC 6238 TOTP): HMAC-SHA-1 of the 30-second
/// time step, 6 digits. Here beside the other uses of OpenSSL's HMAC (libsodium has no SHA-1).
public enum OneTimeCode {
    public static let step: TimeInterval = 30
    public static let digits = 6

    /// The time step `date` falls in; nil for a date no clock shows.
    public static func counter(at date: Date) -> Int64? {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, seconds >= 0, seconds < 1e15 else { return nil }
        return Int64(exactly: (seconds / step).rounded(.down))
    }

    /// The code of the time step `counter` (RFC 4226's dynamic truncation).
    public static func code(secret: [UInt8], counter: Int64) -> String {
        let message = (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: counter) >> (8 * UInt64(7 - $0))) }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        HMAC(EVP_sha1(), secret, Int32(clamping: secret.count), message, message.count, &digest, &length)
        guard length == 20 else { return "" }
        let offset = Int(digest[19] & 0x0F)
        let value = (UInt32(digest[offset] & 0x7F) << 24) | (UInt32(digest[offset + 1]) << 16) | (UInt32(digest[offset + 2]) << 8) | UInt32(digest[offset + 3])
        let number = String(value % 1_000_000)
        return String(repeating: "0", count: digits - number.count) + number
    }

    /// The time step whose code `typed` is, among `now`'s and the one before and after (a
    /// phone's clock a little off); nil for anything else. Spaces are ignored ("123 456").
    public static func matchingStep(_ typed: String, secret: [UInt8], at now: Date) -> Int64? {
        let code = typed.filter { $0 != " " }
        guard code.utf8.count == digits, code.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let current = counter(at: now) else { return nil }
        return [current - 1, current, current + 1].first { step in
            let expected = Self.code(secret: secret, counter: step)
            return !expected.isEmpty && CRYPTO_memcmp(expected, code, digits) == 0
        }
    }
}
