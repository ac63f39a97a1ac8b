/// Rewrites a PNG without its metadata chunks: `eXIf` (EXIF, GPS), `tEXt`, `zTXt` and `iTXt`
/// (where XMP lives) and `tIME`. Every other chunk is copied as it is.
enum PNGMetadata {
    private static let dropped: Set<String> = ["eXIf", "tEXt", "zTXt", "iTXt", "tIME"]

    static func strip(_ bytes: [UInt8]) throws(ImageFile.Problem) -> (size: (width: Int, height: Int), data: [UInt8]) {
        var output = Array(bytes[0..<8])
        var index = 8
        var size: (Int, Int)? = nil
        while index + 12 <= bytes.count {
            guard let length = bytes.uint32BE(index), length <= bytes.count, index + 12 + length <= bytes.count else { throw .notAnImage }
            let type = String(decoding: bytes[(index + 4)..<(index + 8)], as: UTF8.self)
            if size == nil {
                guard type == "IHDR", let width = bytes.uint32BE(index + 8), let height = bytes.uint32BE(index + 12) else { throw .notAnImage }
                size = (width, height)
            }
            if !dropped.contains(type) { output += bytes[index..<(index + 12 + length)] }
            index += 12 + length
            if type == "IEND", let size { return (size, output) }
        }
        throw .notAnImage
    }
}
