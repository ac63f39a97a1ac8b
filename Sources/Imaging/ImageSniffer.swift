/// The formats Moim takes, recognised by their first bytes before libvips sees them: JPEG,
/// PNG, WebP, GIF, and HEIF files holding HEIC (an iPhone's photos) or AVIF.
public enum ImageSniffer {
    /// HEIF brands of still images and sequences in HEVC or AV1 (ISO/IEC 23008-12, AVIF).
    static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis"]

    public static func isAccepted(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return true }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return true }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return true }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return true }
        // ISO base media: a box size, "ftyp", then the major brand.
        if bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) {
            return heifBrands.contains(String(decoding: bytes[8..<12], as: UTF8.self))
        }
        return false
    }
}
