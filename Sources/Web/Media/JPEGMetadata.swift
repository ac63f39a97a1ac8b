/// Rewrites a JPEG without its metadata segments.
///
/// Dropped: APP1 (EXIF with GPS, XMP), APP3–APP13 and APP15 (IPTC and vendor data) and
/// comments. Kept: APP0 (JFIF), APP2 (ICC colour profile), APP14 (Adobe colour transform)
/// and everything from the first frame on. The EXIF orientation is carried over in a new,
/// minimal EXIF segment holding nothing else, so phone photos are not shown sideways.
enum JPEGMetadata {
    static func strip(_ bytes: [UInt8]) throws(ImageFile.Problem) -> (size: (width: Int, height: Int), data: [UInt8]) {
        var output: [UInt8] = [0xFF, 0xD8]
        var orientation: Int? = nil
        var size: (Int, Int)? = nil
        var index = 2
        while index + 4 <= bytes.count {
            guard bytes[index] == 0xFF else { throw .notAnImage }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                output += bytes[index..<index + 2]
                index += 2
                continue
            }
            guard let length = bytes.uint16BE(index + 2), length >= 2, index + 2 + length <= bytes.count else { throw .notAnImage }
            let segment = bytes[index..<index + 2 + length]
            let payload = Array(bytes[(index + 4)..<(index + 2 + length)])
            switch marker {
            case 0xE1:
                if orientation == nil { orientation = exifOrientation(payload) }
            case 0xE3...0xED, 0xEF, 0xFE:
                break
            case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                guard let height = payload.uint16BE(1), let width = payload.uint16BE(3) else { throw .notAnImage }
                size = (width, height)
                output += segment
            case 0xDA:
                // Start of scan: the rest is image data, copied as it is.
                guard let size else { throw .notAnImage }
                if let orientation, orientation != 1 { output.insert(contentsOf: orientationSegment(orientation), at: jfifEnd(output)) }
                return (size, output + bytes[index...])
            default:
                output += segment
            }
            index += 2 + length
        }
        throw .notAnImage
    }

    /// Right after SOI and an APP0 JFIF segment, where an EXIF segment belongs.
    private static func jfifEnd(_ output: [UInt8]) -> Int {
        guard output.count > 6, output[2] == 0xFF, output[3] == 0xE0, let length = output.uint16BE(4) else { return 2 }
        return 4 + length
    }

    /// The Orientation tag (0x0112) of an EXIF payload, if present and sane.
    static func exifOrientation(_ payload: [UInt8]) -> Int? {
        guard payload.starts(with: Array("Exif".utf8) + [0, 0]) else { return nil }
        let tiff = Array(payload.dropFirst(6))
        let little: Bool
        if tiff.starts(with: [0x49, 0x49]) { little = true } else if tiff.starts(with: [0x4D, 0x4D]) { little = false } else { return nil }
        let u16 = { (at: Int) in little ? tiff.uint16LE(at) : tiff.uint16BE(at) }
        let u32 = { (at: Int) in little ? tiff.uint32LE(at) : tiff.uint32BE(at) }
        guard let ifd = u32(4), let entries = u16(ifd), entries < 1000 else { return nil }
        for entry in 0..<entries {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            if tag == 0x0112, let value = u16(at + 8), (1...8).contains(value) { return value }
        }
        return nil
    }

    /// An APP1 segment with an EXIF block holding only the orientation.
    static func orientationSegment(_ orientation: Int) -> [UInt8] {
        let tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,  // big-endian header, IFD0 at 8
                             0x00, 0x01,                                     // one entry
                             0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, // Orientation, SHORT, count 1
                             0x00, UInt8(orientation), 0x00, 0x00,           // the value, padded
                             0x00, 0x00, 0x00, 0x00]                         // no next IFD
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
}
