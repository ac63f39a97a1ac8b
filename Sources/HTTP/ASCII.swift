/// Byte classes of RFC 9110 and 9112, for the parser.
extension UInt8 {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B
    static let dot: UInt8 = 0x2E

    var isDigit: Bool { self >= 0x30 && self <= 0x39 }

    var isHexDigit: Bool { isDigit || (self >= 0x41 && self <= 0x46) || (self >= 0x61 && self <= 0x66) }

    /// tchar of RFC 9110 §5.6.2.
    var isTokenCharacter: Bool {
        switch self {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): true
        default: false
        }
    }
}
