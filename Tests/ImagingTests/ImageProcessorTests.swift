import Foundation
import Imaging
import Testing
import TestSupport

/// Uploads made with real tools (libvips' own CLI, exiftool, heif-enc), processed, and the
/// results checked with the same tools: upright, the right sizes and formats, no metadata.
@Suite(.serialized) struct ImageProcessorTests {
    let processor = ImageProcessor(concurrency: 2)
    let folder = NSTemporaryDirectory() + "moim-imaging-\(UUID().uuidString)"

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    @discardableResult
    private func run(_ tool: String, _ arguments: [String]) throws -> String {
        let run = try runTool(tool, arguments)
        guard run.status == 0 else { throw ToolFailed(tool: tool, arguments: arguments) }
        return run.output
    }

    struct ToolFailed: Error { let tool: String; let arguments: [String] }

    /// A phone-sized photo: 4032 × 3024 pixels stored sideways, EXIF orientation 6 (turn 90°
    /// clockwise to show) and a GPS position, as an iPhone held upright writes it.
    private func phoneJPEG() throws -> [UInt8] {
        let path = folder + "/phone.jpg"
        try run("/usr/bin/vips", ["gaussnoise", folder + "/noise.v", "4032", "3024"])
        try run("/usr/bin/vips", ["jpegsave", folder + "/noise.v", path, "--Q", "90"])
        try run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-Orientation#=6", "-GPSLatitude=37.5283", "-GPSLatitudeRef=N",
                                      "-GPSLongitude=126.9327", "-GPSLongitudeRef=E", "-Make=Apple", path])
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private func metadata(of bytes: [UInt8], _ name: String) throws -> String {
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try run("/usr/bin/exiftool", ["-a", "-G1", "-s", path])
    }

    private func pages(of bytes: [UInt8], _ name: String) throws -> Int {
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return Int(try run("/usr/bin/vipsheader", ["-f", "n-pages", path]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// Every width has a JPEG; a WebP only where it came out smaller, else the width is listed
    /// as one where the JPEG stands in.
    private func expectTheSmallerFileAtEveryWidth(_ image: ProcessedImage, widths: [Int], sourceLocation: SourceLocation = #_sourceLocation) {
        let jpegs = Dictionary(image.variants.filter { $0.format == .jpeg }.map { ($0.width, $0.data.count) }, uniquingKeysWith: max)
            .merging([image.width: image.original.count]) { variant, _ in variant }
        let webps = Dictionary(image.variants.filter { $0.format == .webp }.map { ($0.width, $0.data.count) }, uniquingKeysWith: max)
        #expect(jpegs.keys.sorted() == widths, sourceLocation: sourceLocation)
        #expect(Set(webps.keys).isDisjoint(with: image.jpegWidths), sourceLocation: sourceLocation)
        #expect(Set(webps.keys).union(image.jpegWidths).sorted() == widths, sourceLocation: sourceLocation)
        for (width, size) in webps { #expect(size < jpegs[width] ?? 0, "\(width)", sourceLocation: sourceLocation) }
    }

    @Test func aPhonePhotoComesOutUprightLightAndWithoutItsPosition() throws {
        let upload = try phoneJPEG()
        #expect(try metadata(of: upload, "upload.jpg").contains("GPSLatitude"))

        let image = try processor.process(upload)

        // Upright: the sideways 4032 × 3024 is shown 3024 × 4032, scaled to 2048 wide.
        #expect(image.format == .jpeg)
        #expect(image.width == 2048 && image.height == 2731)
        expectTheSmallerFileAtEveryWidth(image, widths: [320, 640, 828, 1280, 2048])
        // No position and nothing from the camera; an orientation, if any, is "as it is" (libvips's
        // WebP writer always says so), never one a browser would apply a second time.
        for (index, file) in ([image.original] + image.variants.map(\.data)).enumerated() {
            let tags = try metadata(of: file, "out-\(index)").split(separator: "\n")
            #expect(!tags.contains { $0.contains("GPS") || $0.contains("Apple") || $0.contains("Make") }, "\(index)")
            #expect(tags.filter { $0.contains("Orientation") }.allSatisfy { $0.hasSuffix("Horizontal (normal)") }, "\(index)")
        }
        // Light: the phone's column at 2× is a small fraction of the upload.
        let phone = try #require(image.variants.first { $0.width == 640 })
        #expect(phone.data.count * 20 < upload.count)
    }

    @Test func anIPhoneHEICIsTaken() throws {
        let png = folder + "/source.png", heic = folder + "/photo.heic"
        try run("/usr/bin/vips", ["gaussnoise", folder + "/h.v", "1200", "900"])
        try run("/usr/bin/vips", ["pngsave", folder + "/h.v", png])
        try run("/usr/bin/heif-enc", ["-q", "60", "-o", heic, png])
        let image = try processor.process(Array(try Data(contentsOf: URL(fileURLWithPath: heic))))
        #expect(image.format == .jpeg)
        #expect(image.width == 1200 && image.height == 900)
        expectTheSmallerFileAtEveryWidth(image, widths: [320, 640, 828, 1200])
    }

    /// A smooth photo (a sky, skin) comes out smaller as WebP at every width; grain like a
    /// high-ISO night shot's does not, and there the JPEG is what is offered.
    @Test func aWebPIsOfferedOnlyWhereItIsTheSmallerFile() throws {
        try run("/usr/bin/vips", ["gaussnoise", folder + "/grain.v", "2400", "1600", "--sigma", "40"])
        try run("/usr/bin/vips", ["gaussblur", folder + "/grain.v", folder + "/smooth.v", "12"])
        var sizes: [String: Int] = [:]
        for name in ["grain", "smooth"] {
            try run("/usr/bin/vips", ["jpegsave", folder + "/\(name).v", folder + "/\(name).jpg", "--Q", "92"])
            let image = try processor.process(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/\(name).jpg"))))
            expectTheSmallerFileAtEveryWidth(image, widths: [320, 640, 828, 1280, 2048])
            sizes[name] = image.jpegWidths.count
        }
        #expect(sizes["smooth"] == 0)
        #expect((sizes["grain"] ?? 0) > 0)
    }

    @Test func transparencyIsKeptInWebPAndFlattenedInJPEG() throws {
        let path = folder + "/alpha.png"
        try run("/usr/bin/vips", ["black", folder + "/a.v", "800", "600", "--bands", "4"])
        try run("/usr/bin/vips", ["pngsave", folder + "/a.v", path])
        let image = try processor.process(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(image.format == .webp)
        #expect(image.variants.contains { $0.format == .jpeg && $0.width == 800 })
    }

    @Test func anAnimatedGIFKeepsMoving() throws {
        // Two frames of one pixel, black then white, looping (GIF89a with NETSCAPE2.0).
        var gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF]
        gif += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for pixel: UInt8 in [0x44, 0x4C] {
            gif += [0x21, 0xF9, 4, 4, 10, 0, 0, 0, 0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, pixel, 1, 0]
        }
        gif += [0x3B]
        let image = try processor.process(gif)
        #expect(image.isAnimated && image.format == .webp)
        #expect(try pages(of: image.original, "anim.webp") == 2)
    }

    @Test func bombsAreRefusedAtOnceAndJunkIsNotAnImage() throws {
        // A JPEG that claims 65,500 × 65,500 pixels (libjpeg's largest; 65,535 it refuses itself).
        try run("/usr/bin/vips", ["black", folder + "/s.v", "16", "16"])
        try run("/usr/bin/vips", ["jpegsave", folder + "/s.v", folder + "/small.jpg"])
        var jpeg = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/small.jpg")))
        let sof = try #require((0..<(jpeg.count - 9)).first { jpeg[$0] == 0xFF && (jpeg[$0 + 1] == 0xC0 || jpeg[$0 + 1] == 0xC2) })
        let started = Date()
        jpeg.replaceSubrange((sof + 5)..<(sof + 9), with: [0xFF, 0xDC, 0xFF, 0xDC])
        #expect(throws: ImageError.tooManyPixels) { try processor.process(jpeg) }
        jpeg.replaceSubrange((sof + 5)..<(sof + 9), with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: ImageError.notAnImage) { try processor.process(jpeg) }
        // A PNG of 30,000 × 30,000 zeros: its header and a few compressed bytes of a vast image.
        #expect(throws: ImageError.tooManyPixels) { try processor.process(Self.png(width: 30_000, height: 30_000)) }
        // A small PNG with a text chunk that claims 1.7 GB (libpng would allocate it).
        var liar = Self.png(width: 64, height: 48)
        liar.insert(contentsOf: [0x65, 0x00, 0x00, 0x17] + Array("tEXt".utf8) + Array("Comment".utf8), at: 33)
        #expect(throws: ImageError.notAnImage) { try processor.process(liar) }
        #expect(Date().timeIntervalSince(started) < 1)

        #expect(throws: ImageError.notAnImage) { try processor.process(Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)) }
        #expect(throws: ImageError.notAnImage) { try processor.process(Array("%PDF-1.4".utf8)) }
        #expect(throws: ImageError.notAnImage) { try processor.process(Array(jpeg.prefix(40))) }
        #expect(throws: ImageError.notAnImage) { try processor.process([0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0x41, count: 500)) }
    }

    /// A PNG with this header and one short IDAT (deflate of nothing), checksums right.
    static func png(width: UInt32, height: UInt32) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
        }
        let header = bigEndian(width) + bigEndian(height) + [8, 0, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", [])
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
