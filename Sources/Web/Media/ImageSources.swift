import Imaging

/// The files a stored image is served as, for `<picture>` and `srcset`: the original
/// `TOKEN.ext` (kept at most 2048 pixels wide since variants exist; older uploads are larger),
/// and variants `TOKEN-320.webp`, `TOKEN-320.jpg` … `TOKEN-2048.jpg` for the standard widths
/// below its own, and `TOKEN-full.webp` or `.jpg` at its own width in the format it is not.
/// Where an image's WebP came out no smaller than its JPEG (`jpegWidths`), there is no WebP
/// and the WebP list offers the JPEG: browsers decode by the bytes, so the `<source>`'s type
/// only says which browsers may read the list.
/// A variant missing (an image from before variants) is made when first asked for.
struct ImageSources: Equatable {
    /// `srcset` for browsers that read WebP: at each width the smaller file, narrowest first.
    let webp: String
    /// `srcset` of JPEG files (or the original), narrowest first.
    let jpeg: String
    /// For browsers that read no `srcset`: a phone-sized JPEG.
    let fallback: String

    init(fileName: String, width: Int, jpegWidths: [Int] = []) {
        let (token, fileExtension) = Self.split(fileName)
        let standard = ImageProcessor.variantWidths(below: width)
        let path = { (suffix: String, format: String) in Paths.media("\(token)-\(suffix).\(format)") }
        var jpeg = standard.map { (path(String($0), "jpg"), $0) }
        // An old upload wider than the largest standard width is not listed at its own size.
        if width <= (ImageProcessor.widths.last ?? 2048) {
            jpeg.append((fileExtension == "jpg" ? Paths.media(fileName) : path("full", "jpg"), width))
        }
        let webp = jpeg.map { file, fileWidth in
            if jpegWidths.contains(fileWidth) { return (file, fileWidth) }
            let suffix = fileWidth == width ? "full" : String(fileWidth)
            return (fileExtension == "webp" && fileWidth == width ? Paths.media(fileName) : path(suffix, "webp"), fileWidth)
        }
        self.webp = webp.map { "\($0.0) \($0.1)w" }.joined(separator: ", ")
        self.jpeg = jpeg.map { "\($0.0) \($0.1)w" }.joined(separator: ", ")
        fallback = (jpeg.first { $0.1 >= 640 } ?? jpeg.last)?.0 ?? Paths.media(fileName)
    }

    /// `sizes` for an image `share`% of the screen wide on screens up to `below` px and
    /// `desktop` px wide on wider ones. Phones denser than 2.5 device pixels a CSS pixel are
    /// told the slot is two-thirds as wide, so they fetch what 2× needs: at arm's length a 3×
    /// photo looks the same as a 2× one and weighs twice as much (Twitter's "capping image
    /// fidelity", 2019). Browsers without `min-resolution` skip the condition and fetch 3×.
    static func sizes(phoneShare share: Int, below phone: Int, desktop: Int) -> String {
        "(min-resolution: 2.5dppx) and (max-width: \(phone)px) \(share * 2 / 3)vw, (max-width: \(phone)px) \(share)vw, \(desktop)px"
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
    static func variantsShown(of fileName: String, width: Int, jpegWidths: [Int] = []) -> [String] {
        let (token, fileExtension) = split(fileName)
        let formats = { (shownWidth: Int) -> [ProcessedImage.Format] in jpegWidths.contains(shownWidth) ? [.jpeg] : [.webp, .jpeg] }
        var names = ImageProcessor.variantWidths(below: width).flatMap { narrower in
            formats(narrower).map { variantName(token: token, width: narrower, format: $0) }
        }
        if width <= (ImageProcessor.widths.last ?? 2048) {
            for format in formats(width) where format.fileExtension != fileExtension {
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
