/// Reads a WebP's size and rewrites it without its `EXIF` and `XMP ` chunks (clearing their
/// flags in `VP8X` and fixing the RIFF size).
enum WebPMetadata {
    static func strip(_ bytes: [UInt8]) throws(ImageFile.Problem) -> (size: (width: Int, height: Int), data: [UInt8]) {
        var chunks: [[UInt8]] = []
        var size: (Int, Int)? = nil
        var index = 12
        while index + 8 <= bytes.count {
            let type = String(decoding: bytes[index..<(index + 4)], as: UTF8.self)
            guard let length = bytes.uint32LE(index + 4), index + 8 + length <= bytes.count else { throw .notAnImage }
            let padded = length + (length & 1)
            var chunk = Array(bytes[index..<min(bytes.count, index + 8 + padded)])
            switch type {
            case "VP8X":
                guard let width = bytes.uint24LE(index + 12), let height = bytes.uint24LE(index + 15) else { throw .notAnImage }
                size = (width + 1, height + 1)
                chunk[8] &= ~0b0000_1100  // EXIF and XMP present flags
            case "VP8 " where size == nil:
                guard let width = bytes.uint16LE(index + 14), let height = bytes.uint16LE(index + 16) else { throw .notAnImage }
                size = (width & 0x3FFF, height & 0x3FFF)
            case "VP8L" where size == nil:
                guard let bits = bytes.uint32LE(index + 9) else { throw .notAnImage }
                size = ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
            default:
                break
            }
            if type != "EXIF", type != "XMP " { chunks.append(chunk) }
            index += 8 + padded
        }
        guard let size else { throw .notAnImage }
        let body = chunks.flatMap { $0 }
        let riffSize = 4 + body.count
        let header = Array("RIFF".utf8) + [UInt8(riffSize & 0xFF), UInt8(riffSize >> 8 & 0xFF), UInt8(riffSize >> 16 & 0xFF), UInt8(riffSize >> 24 & 0xFF)] + Array("WEBP".utf8)
        return (size, header + body)
    }
}
