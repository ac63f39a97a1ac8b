import Foundation
import Imaging
import Storage
import Testing
import TestSupport
@testable import Web

func fixture(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestSite.root + "/Tests/WebTests/Fixtures/" + name)))
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool { firstRange(of: subsequence) != nil }
}

/// Photos as a member posts them: cleaned, upright, in variants a phone can load, shown with
/// `<picture>` and `srcset`; and variants of images stored before variants existed.
@Suite struct PhotoUploadTests {
    let processor = ImageProcessor(concurrency: 2)

    @Test func aJPEGLosesItsPositionAndCommentsAndStandsUpright() throws {
        // 64 × 48 pixels with EXIF orientation 6, a GPS position, a maker and a comment.
        let original = try fixture("gps.jpg")
        #expect(original.contains(subsequence: Array("PhoneMaker".utf8)))
        let image = try processor.process(original)
        #expect(image.format == .jpeg && image.width == 48 && image.height == 64)
        for data in [image.original] + image.variants.map(\.data) {
            #expect(!data.contains(subsequence: Array("PhoneMaker".utf8)))
            #expect(!data.contains(subsequence: Array("secret comment".utf8)))
            #expect(!data.contains(subsequence: [0x88, 0x25]))  // the GPS IFD pointer tag
        }
    }

    @Test func aPNGLosesItsTextAndWebPAndGIFAreTaken() throws {
        let png = try processor.process(try fixture("text.png"))
        #expect(png.width == 64 && png.height == 48)
        #expect(!png.original.contains(subsequence: Array("my home address".utf8)))
        #expect(!png.original.contains(subsequence: Array("xmpmeta".utf8)))
        #expect(try processor.process(try fixture("plain.webp")).width == 64)
        #expect(try processor.process(try fixture("plain.gif")).height == 48)
    }

    @Test func textTruncatedHugeOrHostileBytesAreRefusedNeverACrash() throws {
        #expect(throws: ImageError.notAnImage) { try processor.process(try fixture("not-an-image.jpg")) }
        #expect(throws: ImageError.notAnImage) { try processor.process(Array(try fixture("gps.jpg").prefix(200))) }
        #expect(throws: ImageError.notAnImage) { try processor.process([]) }
        // A GIF whose screen claims 10,000 × 10,000 (100 megapixels) around its one 64 × 48
        // frame is read as that frame, or refused: never 100 megapixels decoded.
        var gif = try fixture("plain.gif")
        gif[6] = 0x10; gif[7] = 0x27
        gif[8] = 0x10; gif[9] = 0x27
        do {
            let read = try processor.process(gif)
            #expect(read.width * read.height <= 64 * 48)
        } catch {
            #expect(error == .tooManyPixels)
        }

        var generator = SystemRandomNumberGenerator()
        for name in ["gps.jpg", "text.png", "plain.webp", "plain.gif"] {
            let original = try fixture(name)
            for _ in 0..<60 {
                var bytes = Array(original.prefix(Int.random(in: 0...original.count, using: &generator)))
                if !bytes.isEmpty {
                    for _ in 0..<3 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
                }
                _ = try? processor.process(bytes)
            }
        }
    }

    /// A camera's huge JPEG is a JPEG with too many pixels, and the form says so, not that it
    /// is no image; the hint says phones' HEIC and AVIF are taken.
    @Test func aHugeJPEGIsTooManyPixelsNotNotAJPEG() throws {
        let folder = NSTemporaryDirectory() + "moim-huge-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try runTool("/usr/bin/vips", ["black", folder + "/huge.v", "13000", "9000"])
        try runTool("/usr/bin/vips", ["jpegsave", folder + "/huge.v", folder + "/huge.jpg", "--Q", "50"])
        let huge = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/huge.jpg")))
        #expect(throws: ImageError.tooManyPixels) { try processor.process(huge) }
        let site = try TestSite()
        let mina = site.members("mina")[0]
        #expect(mina.get("/posts/new").bodyText.contains("HEIC and AVIF"))
        let refused = mina.postMultipart("/posts", [("body", "Panorama")], files: [("photos", "huge.jpg", huge)], from: "/posts/new")
        #expect(refused.status == .unprocessableContent)
        #expect(refused.bodyText.contains("too many pixels") && !refused.bodyText.contains("is not a JPEG"))
    }

    @Test func aPostedPhotoIsAPictureOfVariantsEachServedWithItsType() throws {
        let site = try TestSite()
        let mina = site.members("mina")[0]
        let created = mina.postMultipart("/posts", [("body", "Sunrise")], files: [("photos", "run.jpg", try fixture("gps.jpg"))], from: "/posts/new")
        let page = mina.get(try #require(created.headers["Location"])).bodyText
        let webp = try #require(page.firstMatch(of: /<source type="image\/webp" srcset="([^"]+)"/)?.1)
        let sizes = "(min-resolution: 2.5dppx) and (max-width: 672px) 66vw, (max-width: 672px) 100vw, 640px"
        let jpeg = try #require(page.firstMatch(of: /<img src="[^"]+" srcset="([^"]+)" sizes="([^"]+)" width="48" height="64"/))
        #expect(jpeg.2 == sizes)
        #expect(page.contains("decoding=\"async\""))
        // Its mean colour waits behind it while it loads.
        let tone = try #require(page.firstMatch(of: /decoding="async" class="tone-(\d+)"/)?.1)
        #expect((0..<64).contains(Int(tone) ?? -1))
        #expect(try site.database.feed.feedItem(postID: 1, viewerID: nil)?.photos.first?.tone != nil)
        // Each file is served with its type; at each width, the WebP list offers the smaller file.
        var bytes: [String: [Int]] = [:]
        for (list, name) in [(webp, "webp"), (jpeg.1, "jpeg")] {
            for entry in list.split(separator: ",") {
                let parts = entry.split(separator: " ")
                let path = String(try #require(parts.first)), width = String(try #require(parts.last))
                let answer = mina.get(path)
                #expect(answer.status == .ok, "\(path)")
                #expect(answer.headers["Content-Type"] == (path.hasSuffix(".webp") ? "image/webp" : "image/jpeg"), "\(path)")
                #expect(answer.headers["Cache-Control"] == "public, max-age=31536000, immutable")
                bytes[width, default: []].append(answer.body.count)
                if name == "jpeg" { #expect(path.hasSuffix(".jpg")) }
            }
        }
        for (width, sizes) in bytes { #expect(sizes.count == 2 && sizes[0] <= sizes[1], "\(width)") }
    }

    /// A grainy photo (a night shot at high ISO) whose WebP came out bigger at some widths: the
    /// page's WebP list offers the JPEG there, and what a phone fetches is never the bigger file.
    @Test func whereTheWebPCameOutBiggerThePageOffersTheJPEG() throws {
        let folder = NSTemporaryDirectory() + "moim-grain-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try run("/usr/bin/vips", ["gaussnoise", folder + "/grain.v", "2400", "1600", "--sigma", "40"])
        try run("/usr/bin/vips", ["jpegsave", folder + "/grain.v", folder + "/grain.jpg", "--Q", "92"])
        let site = try TestSite()
        let mina = site.members("mina")[0]
        let photo = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/grain.jpg")))
        let created = mina.postMultipart("/posts", [("body", "Night run")], files: [("photos", "night.jpg", photo)], from: "/posts/new")
        let page = mina.get(try #require(created.headers["Location"])).bodyText
        let stored = try #require(try site.database.feed.feedItem(postID: 1, viewerID: nil)?.photos.first)
        #expect(!stored.jpegWidths.isEmpty)
        let webp = String(try #require(page.firstMatch(of: /<source type="image\/webp" srcset="([^"]+)"/)?.1))
        for entry in webp.split(separator: ", ") {
            let parts = entry.split(separator: " ")
            let path = String(parts[0]), width = Int(parts[1].dropLast()) ?? 0
            #expect(path.hasSuffix(".jpg") == stored.jpegWidths.contains(width), "\(entry)")
            #expect(mina.get(path).status == .ok, "\(entry)")
        }
    }

    @Test func theWebPListOffersTheJPEGAtItsJPEGWidths() {
        let token = "AAAAAAAAAAAAAAAAAAAAAA"
        let sources = ImageSources(fileName: "\(token).jpg", width: 2048, jpegWidths: [828, 2048])
        #expect(sources.webp == "/media/\(token)-320.webp 320w, /media/\(token)-640.webp 640w, /media/\(token)-828.jpg 828w, "
            + "/media/\(token)-1280.webp 1280w, /media/\(token).jpg 2048w")
        #expect(sources.jpeg == "/media/\(token)-320.jpg 320w, /media/\(token)-640.jpg 640w, /media/\(token)-828.jpg 828w, "
            + "/media/\(token)-1280.jpg 1280w, /media/\(token).jpg 2048w")
        // `media rebuild` makes no WebP the page does not offer.
        let shown = ImageSources.variantsShown(of: "\(token).jpg", width: 2048, jpegWidths: [828, 2048])
        #expect(!shown.contains("\(token)-828.webp") && !shown.contains("\(token)-full.webp") && shown.contains("\(token)-1280.webp"))
    }

    @Test func toneClassesQuantiseEachChannelToFourLevels() {
        #expect(ImageSources.toneClass(nil) == "")
        #expect(ImageSources.toneClass(0x000000) == "tone-0")
        #expect(ImageSources.toneClass(0xFFFFFF) == "tone-63")
        #expect(ImageSources.toneClass(0xC04000) == "tone-52")  // red level 3, green 1, blue 0
        #expect(ImageSources.toneClass(-1) == "" && ImageSources.toneClass(0x1000000) == "")
    }

    @Test func anImageFromBeforeVariantsGetsThemWhenFirstAskedFor() throws {
        let site = try TestSite()
        let folder = site.app.configuration.mediaDirectory
        // An upload stored as it came: a 1,600-pixel-wide PNG.
        let token = "AAAAAAAAAAAAAAAAAAAAAA"
        let source = NSTemporaryDirectory() + "moim-old-\(UUID().uuidString).png"
        try run("/usr/bin/vips", ["black", source, "1600", "900", "--bands", "3"])
        try FileManager.default.copyItem(atPath: source, toPath: folder + "/\(token).png")

        let visitor = site.browser()
        let variant = visitor.get("/media/\(token)-640.webp")
        #expect(variant.status == .ok && variant.headers["Content-Type"] == "image/webp")
        #expect(FileManager.default.fileExists(atPath: folder + "/\(token)-640.webp"))
        #expect(visitor.get("/media/\(token)-full.jpg").status == .ok)
        // Widths the site never makes, and variants of nothing, are not there.
        #expect(visitor.get("/media/\(token)-641.webp").status == .notFound)
        #expect(visitor.get("/media/BBBBBBBBBBBBBBBBBBBBBB-640.webp").status == .notFound)
    }

    @Test func mediaRebuildMakesTheVariantsOfOldPhotosAndResumes() throws {
        // Given a post whose photo was stored as uploaded: a 3,000-pixel-wide JPEG, no variants
        let site = try TestSite()
        let folder = site.app.configuration.mediaDirectory
        let token = "CCCCCCCCCCCCCCCCCCCCCC"
        try run("/usr/bin/vips", ["black", folder + "/\(token).jpg", "3000", "2000", "--bands", "3"])
        let author = try #require(try site.database.accounts.createUser(User(username: "mina", email: "mina@example.com", passwordHash: "x", displayName: "Mina")).id)
        _ = try site.database.posts.createPost(authorID: author, content: PostContent(body: "old", bodyHTML: "<p>old</p>", tags: [], mentionedUserIDs: []),
                                         photos: [NewPhoto(fileName: "\(token).jpg", mediaType: "image/jpeg", width: 3000, height: 2000, byteCount: 1)])

        // When the rebuild runs, every variant pages ask for is made
        var reports: [MediaRebuild.Progress] = []
        let done = try MediaRebuild.run(database: site.database, configuration: site.app.configuration) { reports.append($0) }
        #expect(done.images == 1 && done.variantsMade == 10 && done.failed == 0)
        for width in [320, 640, 828, 1280, 2048] {
            for format in ["webp", "jpg"] { #expect(FileManager.default.fileExists(atPath: folder + "/\(token)-\(width).\(format)")) }
        }
        #expect(reports.last?.variantsMade == 10)
        // And run again (after an interruption), it has nothing left to do
        #expect(try MediaRebuild.run(database: site.database, configuration: site.app.configuration) { _ in }.variantsMade == 0)
    }

    private func run(_ tool: String, _ arguments: [String]) throws {
        try runTool(tool, arguments)
    }
}
