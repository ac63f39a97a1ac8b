/// A position in PostgreSQL's write-ahead log (a `pg_lsn`): how far the primary has written,
/// or how far a replica has replayed. Read from the server's text and from a browser's cookie,
/// so both parsers refuse anything but hex digits in range.
public struct WALPosition: Comparable, Hashable, Sendable {
    public let value: UInt64

    public init(_ value: UInt64) {
        self.value = value
    }

    /// `16/B374D848`, as PostgreSQL prints a `pg_lsn`: two groups of 1–8 hex digits.
    public init?(postgres text: some StringProtocol) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let high = Self.hex(parts[0], digits: 8), let low = Self.hex(parts[1], digits: 8) else { return nil }
        value = high << 32 | low
    }

    /// 1–16 hex digits, as `token` writes it.
    public init?(token text: some StringProtocol) {
        guard let value = Self.hex(text, digits: 16) else { return nil }
        self.value = value
    }

    /// The position as lowercase hex digits, for a cookie.
    public var token: String { String(value, radix: 16) }

    public static func < (lhs: WALPosition, rhs: WALPosition) -> Bool { lhs.value < rhs.value }

    /// The value of 1…`digits` hex digits and nothing else (no sign, no spaces).
    private static func hex(_ text: some StringProtocol, digits: Int) -> UInt64? {
        guard (1...digits).contains(text.utf8.count) else { return nil }
        var value: UInt64 = 0
        for byte in text.utf8 {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            // At most 16 digits: the shift never drops a set bit.
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}
