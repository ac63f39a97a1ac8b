/// Just enough DER (X.690) to hand OpenSSL the public keys a JWKS document describes and
/// the ECDSA signatures a JWT carries.
enum DER {
    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    static func element(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        [tag] + length(content.count) + content
    }

    static func sequence(_ parts: [UInt8]...) -> [UInt8] { element(0x30, parts.flatMap { $0 }) }

    /// A non-negative INTEGER from big-endian bytes.
    static func integer(_ bytes: [UInt8]) -> [UInt8] {
        var digits = Array(bytes.drop { $0 == 0 })
        if digits.isEmpty { digits = [0] }
        if digits[0] & 0x80 != 0 { digits.insert(0, at: 0) }
        return element(0x02, digits)
    }

    static func bitString(_ bytes: [UInt8]) -> [UInt8] { element(0x03, [0] + bytes) }

    static let null: [UInt8] = [0x05, 0x00]
    /// 1.2.840.113549.1.1.1
    static let rsaEncryption: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    /// 1.2.840.10045.2.1
    static let ecPublicKey: [UInt8] = [0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    /// 1.3.101.112, Ed25519
    static let ed25519: [UInt8] = [0x06, 0x03, 0x2B, 0x65, 0x70]

    /// 1.2.840.10045.3.1.7, P-256
    static let prime256v1: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]

    /// The two INTEGERs of an ECDSA-Sig-Value as 32-byte big-endian halves (JOSE's form),
    /// nil unless `der` is exactly that.
    static func rawSignature(_ der: [UInt8]) -> [UInt8]? {
        guard der.count >= 8, der[0] == 0x30, Int(der[1]) == der.count - 2 else { return nil }
        var offset = 2
        var halves: [UInt8] = []
        for _ in 0..<2 {
            guard offset + 2 <= der.count, der[offset] == 0x02 else { return nil }
            let count = Int(der[offset + 1])
            guard count >= 1, count <= 33, offset + 2 + count <= der.count else { return nil }
            let digits = Array(der[(offset + 2)..<(offset + 2 + count)].drop { $0 == 0 })
            guard digits.count <= 32 else { return nil }
            halves += [UInt8](repeating: 0, count: 32 - digits.count) + digits
            offset += 2 + count
        }
        return offset == der.count ? halves : nil
    }
}
