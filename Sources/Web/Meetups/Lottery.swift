import Formats
import Foundation

/// The verifiable draw of a lottery meetup. When signups open, the page shows the SHA-256 of a
/// secret seed; at the deadline the seed is revealed, and anyone can recompute the order:
/// entrants sorted by `sha256hex(seed + ":" + username)`, the first `capacity` get places, the
/// rest wait in that order (`printf '%s' "$SEED:mina" | sha256sum`).
enum Lottery {
    /// A new seed and its commitment.
    static func seed() -> (seed: String, commitment: String) {
        let seed = Crypto.randomToken(32)
        return (seed, rank(seed))
    }

    /// SHA-256 of the text's UTF-8, in lowercase hex.
    static func rank(_ text: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(64)
        for byte in Crypto.sha256(Array(text.utf8)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
