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

    /// The bytes to hand to libvips. A PNG is walked chunk by chunk first: a chunk that claims
    /// more bytes than the file holds is refused (libpng allocated the 1.7 GB a 265-byte file's
    /// text chunk claimed), and text and EXIF chunks, dropped from every stored image anyway,
    /// never reach libpng.
    static func prepared(_ bytes: [UInt8]) -> [UInt8]? {
        guard isAccepted(bytes) else { return nil }
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return bytes }
        var kept = Array(bytes.prefix(8))
        var offset = 8
        while offset < bytes.count {
            guard bytes.count - offset >= 12 else { return nil }
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length <= bytes.count - offset - 12 else { return nil }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let end = offset + 12 + length
            if !droppedPNGChunks.contains(type) { kept += bytes[offset..<end] }
            offset = end
            if type == "IEND" { break }
        }
        return kept
    }

    static let droppedPNGChunks: Set<String> = ["tEXt", "zTXt", "iTXt", "eXIf", "tIME"]
}
