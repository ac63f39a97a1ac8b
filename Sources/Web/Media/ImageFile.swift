/// An uploaded image, recognised by its bytes (never by its name or declared type), with its
/// size read from its header and its metadata removed.
struct ImageFile: Equatable {
    enum Format: String {
        case jpeg, png, webp, gif

        var mediaType: String { "image/\(rawValue)" }
        var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
    }

    enum Problem: Error, Equatable {
        /// Not a JPEG, PNG, WebP or GIF, or too damaged to read.
        case notAnImage
        /// More pixels than `maximumPixels`.
        case tooManyPixels
    }

    static let maximumPixels = 40_000_000
    static let maximumSide = 12_000

    let format: Format
    let width: Int
    let height: Int
    /// The bytes to store: the upload without EXIF, XMP, comments and text chunks.
    let data: [UInt8]

    init(_ bytes: [UInt8]) throws(Problem) {
        let format: Format
        let size: (width: Int, height: Int)
        let cleaned: [UInt8]
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            format = .jpeg
            (size, cleaned) = try JPEGMetadata.strip(bytes)
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            format = .png
            (size, cleaned) = try PNGMetadata.strip(bytes)
        } else if bytes.count >= 30, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            format = .webp
            (size, cleaned) = try WebPMetadata.strip(bytes)
        } else if bytes.count >= 10, bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            format = .gif
            size = (Int(bytes[6]) | Int(bytes[7]) << 8, Int(bytes[8]) | Int(bytes[9]) << 8)
            cleaned = bytes
        } else {
            throw .notAnImage
        }
        guard size.width > 0, size.height > 0 else { throw .notAnImage }
        guard size.width <= Self.maximumSide, size.height <= Self.maximumSide,
              size.width * size.height <= Self.maximumPixels else { throw .tooManyPixels }
        self.format = format
        self.width = size.width
        self.height = size.height
        self.data = cleaned
    }
}

/// Big-endian and little-endian integer reads that fail instead of trapping.
extension Array where Element == UInt8 {
    func uint16BE(_ at: Int) -> Int? { at + 2 <= count ? Int(self[at]) << 8 | Int(self[at + 1]) : nil }
    func uint32BE(_ at: Int) -> Int? { at + 4 <= count ? Int(self[at]) << 24 | Int(self[at + 1]) << 16 | Int(self[at + 2]) << 8 | Int(self[at + 3]) : nil }
    func uint16LE(_ at: Int) -> Int? { at + 2 <= count ? Int(self[at]) | Int(self[at + 1]) << 8 : nil }
    func uint24LE(_ at: Int) -> Int? { at + 3 <= count ? Int(self[at]) | Int(self[at + 1]) << 8 | Int(self[at + 2]) << 16 : nil }
    func uint32LE(_ at: Int) -> Int? { at + 4 <= count ? Int(self[at]) | Int(self[at + 1]) << 8 | Int(self[at + 2]) << 16 | Int(self[at + 3]) << 24 : nil }
}
