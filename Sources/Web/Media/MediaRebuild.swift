import Foundation
import Imaging
import Storage

/// `moim media rebuild`: the variants of every image stored before variants existed (or whose
/// variants went missing), made while the site serves. Resumable: what exists is skipped, so
/// running it again after an interruption picks up where it stopped.
public enum MediaRebuild {
    public struct Progress: Sendable {
        public let images: Int
        public let variantsMade: Int
        public let failed: Int
    }

    /// Goes through every stored image, calling `report` every `every` images and at the end.
    public static func run(
        database: AppDatabase, configuration: WebConfiguration, every: Int = 100, report: (Progress) -> Void
    ) throws -> Progress {
        let images = ImageProcessor()
        let media = try configuration.mediaBucket.map { MediaStore(bucket: $0, images: images) }
            ?? MediaStore(directory: configuration.mediaDirectory, images: images)
        var cursor: Int64? = 0
        var seen = 0, made = 0, failed = 0
        while let after = cursor {
            let page = try database.posts.storedImages(after: after)
            for image in page.images {
                do {
                    made += try media.makeMissingVariants(of: image.fileName, width: image.width, jpegWidths: image.jpegWidths)
                } catch {
                    failed += 1
                    FileHandle.standardError.write(Data("media rebuild: \(image.fileName): \(error)\n".utf8))
                }
                seen += 1
                if seen % every == 0 { report(Progress(images: seen, variantsMade: made, failed: failed)) }
            }
            cursor = page.next
        }
        let done = Progress(images: seen, variantsMade: made, failed: failed)
        report(done)
        return done
    }
}
