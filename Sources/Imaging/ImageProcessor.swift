import CVips
import Dispatch
import Foundation

/// An upload made ready for screens: the cleaned largest image kept as the original, and
/// smaller copies for phones.
public struct ProcessedImage: Sendable {
    public enum Format: String, Sendable {
        case jpeg, webp

        public var fileExtension: String { self == .jpeg ? "jpg" : "webp" }
        public var mediaType: String { "image/\(rawValue)" }
    }

    public struct Variant: Sendable, Equatable {
        public let width: Int
        public let format: Format
        public let data: [UInt8]
    }

    /// JPEG, or WebP for an image with transparency or one that moves.
    public let format: Format
    public let width: Int
    public let height: Int
    public let original: [UInt8]
    /// Narrower copies in both formats, and the full width in the format the original is not,
    /// except a WebP that came out no smaller than the JPEG of its width.
    public let variants: [Variant]
    /// The widths (among `ImageProcessor.widths` and the image's own) at which the JPEG is
    /// offered in WebP's place because the WebP came out no smaller: on detailed photos it can.
    public let jpegWidths: [Int]
    /// The image's mean colour, 0xRRGGBB, shown while it loads.
    public let averageColour: Int
    public let isAnimated: Bool
}

/// Why an upload was not turned into an image.
public enum ImageError: Error, Equatable, Sendable {
    /// Not a JPEG, PNG, WebP, GIF, HEIC or AVIF, or too damaged to read.
    case notAnImage
    /// More pixels than `ImageProcessor.maximumPixels` (or a side longer than `maximumSide`).
    case tooManyPixels
    /// Every decoding slot stayed busy for the whole wait.
    case busy
}

/// Turns uploads into `ProcessedImage`s with libvips (Debian's libvips-dev): decoded from
/// their bytes (never their name), turned upright by their EXIF orientation, converted to
/// sRGB, every piece of metadata dropped, scaled to the widths phones and desktops show.
///
/// Only the formats Moim takes reach libvips (recognised by their first bytes), and libvips
/// itself runs only the loaders it trusts with hostile input. The header is read before any
/// pixel: an image that claims too many pixels (a decompression bomb) is refused at once.
/// At most `concurrency` images are decoded at a time — one per core: decoding is all CPU
/// and memory, and more at once would only hold more of both.
public final class ImageProcessor: Sendable {
    public static let maximumPixels = 40_000_000
    public static let maximumSide = 12_000
    /// The widths pages ask for: a phone's column at 1× and 2× (320, 640), a 375–414 px phone
    /// at 2× (828: without it such a phone fetched the 1280, twice the bytes), a desktop's
    /// column at 2× (1280), a full-screen view (2048, also the largest kept).
    public static let widths = [320, 640, 828, 1280, 2048]

    /// The quality each variant is encoded at. Pages cap phones at 2× (`sizes`), so the
    /// widths phones fetch (828, 1280) are seen at twice their pixels' density and hide more;
    /// the 320 is seen small at 1×, and the largest is kept as the original, so both stay high.
    /// WebP's scale runs lower than JPEG's: each pair was chosen from SSIMULACRA2 scores on
    /// real photographs so that both formats look alike at a width (75 at 640, 70 at 828–1280;
    /// `docs/OPERATIONS.md`, "Photo quality").
    static func quality(width: Int?, format: ProcessedImage.Format) -> Int {
        let (jpeg, webp) = switch width ?? Int.max {
        case ...320: (80, 80)
        case ...640: (72, 80)
        case ...1280: (65, 75)
        default: (80, 80)
        }
        return format == .jpeg ? jpeg : webp
    }

    private let slots: DispatchSemaphore
    private let wait: DispatchTimeInterval

    public init(concurrency: Int = ProcessInfo.processInfo.activeProcessorCount, wait: DispatchTimeInterval = .seconds(10)) {
        _ = Self.started
        slots = DispatchSemaphore(value: max(1, concurrency))
        self.wait = wait
    }

    private static let started: Bool = moim_vips_start() == 0

    /// The widths to make for an image `width` pixels wide: the standard ones below it.
    public static func variantWidths(below width: Int) -> [Int] {
        widths.filter { $0 < width }
    }

    public func process(_ upload: [UInt8]) throws(ImageError) -> ProcessedImage {
        guard Self.started, let bytes = ImageSniffer.prepared(upload) else { throw .notAnImage }
        let header = try Self.header(bytes)
        guard slots.wait(timeout: .now() + wait) == .success else { throw .busy }
        defer { slots.signal() }
        return try Self.withBytes(bytes) { buffer throws(ImageError) in try Self.process(buffer, header: header) }
    }

    /// One variant of a stored original (an image kept before variants were made, or one
    /// whose variant went missing): `width` wide (never wider than the original) in `format`.
    public func variant(of stored: [UInt8], width: Int, format: ProcessedImage.Format) throws(ImageError) -> [UInt8] {
        guard Self.started, let original = ImageSniffer.prepared(stored) else { throw .notAnImage }
        let header = try Self.header(original)
        guard slots.wait(timeout: .now() + wait) == .success else { throw .busy }
        defer { slots.signal() }
        return try Self.withBytes(original) { buffer throws(ImageError) in
            let animated = header.pages > 1 && format == .webp
            let image = try Self.thumbnail(buffer, width: width, animated: animated)
            defer { moim_vips_release(image) }
            let standard = Self.widths.contains(width) && width < header.width ? width : nil
            return try Self.encode(image, as: format, quality: Self.quality(width: standard, format: format))
        }
    }

    // MARK: - libvips

    /// `withUnsafeBytes`, keeping the error's type.
    private static func withBytes<T>(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(ImageError) -> T) throws(ImageError) -> T {
        let result: Result<T, ImageError> = bytes.withUnsafeBytes { buffer in
            do throws(ImageError) { return .success(try body(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private struct Header {
        let width: Int
        let height: Int
        let pages: Int
        let hasAlpha: Bool
    }

    private static func header(_ bytes: [UInt8]) throws(ImageError) -> Header {
        var width: CInt = 0, height: CInt = 0, pages: CInt = 0, alpha: CInt = 0, orientation: CInt = 0
        let status = bytes.withUnsafeBytes { buffer in
            moim_vips_header(buffer.baseAddress, buffer.count, &width, &height, &pages, &alpha, &orientation)
        }
        guard status == 0, width > 0, height > 0, pages > 0 else {
            moim_vips_error_clear()
            throw .notAnImage
        }
        let (pixels, overflow) = Int(width).multipliedReportingOverflow(by: Int(height))
        let (all, overflowAll) = pixels.multipliedReportingOverflow(by: Int(pages))
        guard !overflow, !overflowAll, all <= maximumPixels, width <= maximumSide, height <= maximumSide else { throw .tooManyPixels }
        return Header(width: Int(width), height: Int(height), pages: Int(pages), hasAlpha: alpha != 0)
    }

    private static func process(_ buffer: UnsafeRawBufferPointer, header: Header) throws(ImageError) -> ProcessedImage {
        let animated = header.pages > 1
        let largestWidth = widths.last ?? 2048
        // The largest kept, decoded once; the narrower ones are scaled from it.
        let largest = try thumbnail(buffer, width: largestWidth, animated: animated)
        defer { moim_vips_release(largest) }
        guard let decoded = moim_vips_in_memory(largest) else { throw failure() }
        defer { moim_vips_release(decoded) }
        let width = Int(moim_vips_width(decoded)), height = Int(moim_vips_page_height(decoded))
        let format: ProcessedImage.Format = header.hasAlpha || animated ? .webp : .jpeg
        let original = try encode(decoded, as: format, quality: quality(width: nil, format: format))
        // A JPEG can stand in for a WebP only where there is nothing it would lose.
        let jpegMayStandIn = format == .jpeg

        var variants: [ProcessedImage.Variant] = []
        var jpegWidths: [Int] = []
        for narrower in variantWidths(below: width) {
            // An animation is scaled from its upload (every frame); a still from the decoded copy.
            let image = animated ? try thumbnail(buffer, width: narrower, animated: true) : try resized(decoded, to: narrower)
            defer { moim_vips_release(image) }
            let webp = try encode(image, as: .webp, quality: quality(width: narrower, format: .webp))
            let jpeg: [UInt8]
            if animated {
                // A JPEG shows the first frame.
                let still = try thumbnail(buffer, width: narrower, animated: false)
                defer { moim_vips_release(still) }
                jpeg = try encode(still, as: .jpeg, quality: quality(width: narrower, format: .jpeg))
            } else {
                jpeg = try encode(image, as: .jpeg, quality: quality(width: narrower, format: .jpeg))
            }
            if jpegMayStandIn && webp.count >= jpeg.count {
                jpegWidths.append(narrower)
            } else {
                variants.append(.init(width: narrower, format: .webp, data: webp))
            }
            variants.append(.init(width: narrower, format: .jpeg, data: jpeg))
        }
        // The full width in the other format too, so that each format's list reaches the largest.
        let other: ProcessedImage.Format = format == .jpeg ? .webp : .jpeg
        if animated && other == .jpeg {
            let still = try thumbnail(buffer, width: width, animated: false)
            defer { moim_vips_release(still) }
            variants.append(.init(width: width, format: .jpeg, data: try encode(still, as: .jpeg, quality: quality(width: nil, format: .jpeg))))
        } else {
            let full = try encode(decoded, as: other, quality: quality(width: nil, format: other))
            if jpegMayStandIn && full.count >= original.count {
                jpegWidths.append(width)
            } else {
                variants.append(.init(width: width, format: other, data: full))
            }
        }
        let colour = moim_vips_average_colour(decoded)
        return ProcessedImage(
            format: format, width: width, height: height, original: original, variants: variants,
            jpegWidths: jpegWidths, averageColour: colour >= 0 ? Int(colour) : 0xDDDDDD, isAnimated: animated)
    }

    private static func thumbnail(_ buffer: UnsafeRawBufferPointer, width: Int, animated: Bool) throws(ImageError) -> UnsafeMutablePointer<VipsImage> {
        guard let image = moim_vips_thumbnail(buffer.baseAddress, buffer.count, CInt(clamping: width), animated ? 1 : 0) else { throw failure() }
        return image
    }

    private static func resized(_ image: UnsafeMutablePointer<VipsImage>, to width: Int) throws(ImageError) -> UnsafeMutablePointer<VipsImage> {
        guard let resized = moim_vips_resize(image, CInt(clamping: width)) else { throw failure() }
        return resized
    }

    private static func encode(_ image: UnsafeMutablePointer<VipsImage>, as format: ProcessedImage.Format, quality: Int) throws(ImageError) -> [UInt8] {
        var output: UnsafeMutableRawPointer?
        var length = 0
        let status = format == .webp
            ? moim_vips_webp(image, CInt(quality), &output, &length)
            : moim_vips_jpeg(image, CInt(quality), &output, &length)
        guard status == 0, let output else { throw failure() }
        defer { moim_vips_free(output) }
        return Array(UnsafeRawBufferPointer(start: output, count: length))
    }

    /// A file libvips could not decode or encode: damaged, truncated, or not what it claims.
    private static func failure() -> ImageError {
        moim_vips_error_clear()
        return .notAnImage
    }
}
