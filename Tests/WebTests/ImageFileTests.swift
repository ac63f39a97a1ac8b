import Foundation
import Testing
@testable import Web

func fixture(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestSite.root + "/Tests/WebTests/Fixtures/" + name)))
}

@Suite struct ImageFileTests {
    @Test func aJPEGLosesGPSAndCommentsButKeepsItsOrientation() throws {
        let original = try fixture("gps.jpg")
        #expect(original.contains(subsequence: Array("PhoneMaker".utf8)))
        let image = try ImageFile(original)
        #expect(image.format == .jpeg)
        #expect(image.width == 64 && image.height == 48)
        #expect(!image.data.contains(subsequence: Array("PhoneMaker".utf8)))
        #expect(!image.data.contains(subsequence: Array("secret comment".utf8)))
        #expect(!image.data.contains(subsequence: [0x88, 0x25]))  // the GPS IFD pointer tag
        let exif = try #require(image.data.firstRange(of: Array("Exif".utf8) + [0, 0]))
        #expect(JPEGMetadata.exifOrientation(Array(image.data[exif.lowerBound...])) == 6)
        // Still a JPEG that reads the same way.
        #expect(try ImageFile(image.data) == image)
    }

    @Test func aPNGLosesItsTextAndXMPChunks() throws {
        let image = try ImageFile(try fixture("text.png"))
        #expect(image.format == .png && image.width == 64 && image.height == 48)
        #expect(!image.data.contains(subsequence: Array("my home address".utf8)))
        #expect(!image.data.contains(subsequence: Array("xmpmeta".utf8)))
        #expect(image.data.contains(subsequence: Array("IDAT".utf8)))
    }

    @Test func webPAndGIFAreRecognisedWithTheirSize() throws {
        let webp = try ImageFile(try fixture("plain.webp"))
        #expect(webp.format == .webp && webp.width == 64 && webp.height == 48)
        let gif = try ImageFile(try fixture("plain.gif"))
        #expect(gif.format == .gif && gif.width == 64 && gif.height == 48)
    }

    @Test func textNamedJPGIsNotAnImage() throws {
        #expect(throws: ImageFile.Problem.notAnImage) { try ImageFile(try fixture("not-an-image.jpg")) }
        #expect(throws: ImageFile.Problem.notAnImage) { try ImageFile(Array(try fixture("gps.jpg").prefix(200))) }
        #expect(throws: ImageFile.Problem.notAnImage) { try ImageFile([]) }
    }

    @Test func hugeImagesAreRefusedByTheirHeader() throws {
        var gif = try fixture("plain.gif")
        gif[6] = 0x10; gif[7] = 0x27  // 10,000 wide
        gif[8] = 0x10; gif[9] = 0x27  // 10,000 high: 100 megapixels
        #expect(throws: ImageFile.Problem.tooManyPixels) { try ImageFile(gif) }
    }

    @Test func truncatedOrHostileBytesNeverCrash() throws {
        var generator = SystemRandomNumberGenerator()
        for name in ["gps.jpg", "text.png", "plain.webp", "plain.gif"] {
            let original = try fixture(name)
            for _ in 0..<300 {
                var bytes = Array(original.prefix(Int.random(in: 0...original.count, using: &generator)))
                if !bytes.isEmpty {
                    for _ in 0..<3 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
                }
                _ = try? ImageFile(bytes)
            }
        }
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool { firstRange(of: subsequence) != nil }
}
