import Imaging

/// The files a stored image is served as, for `<picture>` and `srcset`: the original
/// `TOKEN.ext` (kept at most 2048 pixels wide since variants exist; older uploads are larger),
/// and variants `TOKEN-320.webp`, `TOKEN-320.jpg` … `TOKEN-2048.jpg` for the standard widths
/// below its own, and `TOKEN-full.webp` or `.jpg` at its own width in the format it is not.
/// A variant missing (an image from before variants) is made when first asked for.
struct ImageSources: Equatable {
    /// `srcset` of WebP files, narrowest first, each with its width.
    let webp: String
    /// `srcset` of JPEG files (or the original), narrowest first.
    let jpeg: String
    /// For browsers that read no `srcset`: a phone-sized JPEG.
    let fallback: String

    init(fileName: String, width: Int) {
        let (token, fileExtension) = Self.split(fileName)
        let standard = ImageProcessor.variantWidths(below: width)
        let path = { (suffix: String, format: String) in Paths.media("\(token)-\(suffix).\(format)") }
        var webp = standard.map { (path(String($0), "webp"), $0) }
        var jpeg = standard.map { (path(String($0), "jpg"), $0) }
        // An old upload wider than the largest standard width is not listed at its own size.
        if width <= (ImageProcessor.widths.last ?? 2048) {
            webp.append((fileExtension == "webp" ? Paths.media(fileName) : path("full", "webp"), width))
            jpeg.append((fileExtension == "jpg" ? Paths.media(fileName) : path("full", "jpg"), width))
        }
        self.webp = webp.map { "\($0.0) \($0.1)w" }.joined(separator: ", ")
        self.jpeg = jpeg.map { "\($0.0) \($0.1)w" }.joined(separator: ", ")
        fallback = (jpeg.first { $0.1 >= 640 } ?? jpeg.last)?.0 ?? Paths.media(fileName)
    }

    /// The CSS class that paints `tone` (0xRRGGBB) behind the image while it loads: one of 64,
    /// four levels a channel (`Public/css/moim.css`), since the pages' CSP allows no inline style.
    static func toneClass(_ tone: Int?) -> String {
        guard let tone, (0...0xFF_FFFF).contains(tone) else { return "" }
        let red = tone >> 22 & 3, green = tone >> 14 & 3, blue = tone >> 6 & 3
        return "tone-\(red * 16 + green * 4 + blue)"
    }

    /// A variant's name taken apart: its original's token, its width (nil for `full`) and format.
    struct Variant: Equatable {
        let token: String
        let width: Int?
        let format: ProcessedImage.Format
    }

    static func variant(_ name: String) -> Variant? {
        let (stem, fileExtension) = split(name)
        guard let dash = stem.lastIndex(of: "-"), let format = fileExtension == "jpg" ? ProcessedImage.Format.jpeg : fileExtension == "webp" ? .webp : nil
        else { return nil }
        let token = String(stem[..<dash]), suffix = String(stem[stem.index(after: dash)...])
        guard token.utf8.count == 22 else { return nil }
        if suffix == "full" { return Variant(token: token, width: nil, format: format) }
        guard let width = Int(suffix), ImageProcessor.widths.contains(width), String(width) == suffix else { return nil }
        return Variant(token: token, width: width, format: format)
    }

    /// The name of `image`'s variant `width` wide (nil: its full width) in `format`.
    static func variantName(token: String, width: Int?, format: ProcessedImage.Format) -> String {
        "\(token)-\(width.map(String.init) ?? "full").\(format.fileExtension)"
    }

    /// The variants pages ask for of an image `width` pixels wide.
    static func variantsShown(of fileName: String, width: Int) -> [String] {
        let (token, fileExtension) = split(fileName)
        var names = ImageProcessor.variantWidths(below: width).flatMap { narrower in
            [ProcessedImage.Format.webp, .jpeg].map { variantName(token: token, width: narrower, format: $0) }
        }
        if width <= (ImageProcessor.widths.last ?? 2048) {
            for format in [ProcessedImage.Format.webp, .jpeg] where format.fileExtension != fileExtension {
                names.append(variantName(token: token, width: nil, format: format))
            }
        }
        return names
    }

    /// Every variant name an original may have, for deleting them with it.
    static func variantNames(of fileName: String) -> [String] {
        let token = split(fileName).token
        return (ImageProcessor.widths.map { Optional($0) } + [nil]).flatMap { width in
            [ProcessedImage.Format.webp, .jpeg].map { variantName(token: token, width: width, format: $0) }
        }
    }

    private static func split(_ name: String) -> (token: String, fileExtension: String) {
        guard let dot = name.lastIndex(of: ".") else { return (name, "") }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }
}
