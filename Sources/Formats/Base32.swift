/// RFC 4648 base32, as authenticator apps take a secret: `JBSWY3DPEHPK3PXP`.
public enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// Upper case, without padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        var buffer: UInt32 = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                text.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
            buffer &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 { text.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of `text` (either case, spaces and padding ignored); nil for anything else.
    public static func decode(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0, bits = 0
        for character in text.utf8 where character != UInt8(ascii: " ") && character != UInt8(ascii: "=") {
            let upper = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(character) ? character - 32 : character
            guard let value = alphabet.firstIndex(of: upper) else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                bytes.append(UInt8((buffer >> UInt32(bits - 8)) & 0xFF))
                bits -= 8
            }
            buffer &= (1 << UInt32(bits)) - 1
        }
        return bytes
    }
}
