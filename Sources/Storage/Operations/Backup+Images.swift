import Foundation
import Network

/// The site's images in a backup, from and back into its folder or its bucket.
extension Backup {
    static func fetchImages(from bucket: S3Client, into folder: String, media: MediaFiles) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        do {
            for name in try bucket.names() where media.isImage(name) {
                // Deleted since it was listed: it belonged to content gone from the copy too.
                guard let answer = try bucket.get(name) else { continue }
                guard FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(answer.body)) else {
                    throw BackupError.cannotWrite(folder + "/" + name)
                }
            }
        } catch let error as S3Error {
            throw BackupError.bucket(error.description)
        }
    }

    /// The checked images into `data/media` (replacing what was there), or into `bucket`.
    static func placeImages(from folder: String, data: String, bucket: S3Client?, media: MediaFiles) throws {
        let manager = FileManager.default
        guard let bucket else {
            if manager.fileExists(atPath: data + "/media") { try manager.removeItem(atPath: data + "/media") }
            try manager.moveItem(atPath: folder, toPath: data + "/media")
            return
        }
        do {
            for name in try manager.contentsOfDirectory(atPath: folder).sorted() {
                guard let contents = manager.contents(atPath: folder + "/" + name) else { throw BackupError.cannotRead(folder + "/" + name) }
                try bucket.put(name, body: [UInt8](contents), contentType: media.contentType(name))
            }
        } catch let error as S3Error {
            throw BackupError.bucket(error.description)
        }
    }
}

/// Which files of a site's media folder or bucket are its images, and the type of each: the
/// media store's rules, which a backup follows.
public struct MediaFiles: Sendable {
    public let isImage: @Sendable (String) -> Bool
    public let contentType: @Sendable (String) -> String

    public init(isImage: @escaping @Sendable (String) -> Bool, contentType: @escaping @Sendable (String) -> String) {
        self.isImage = isImage
        self.contentType = contentType
    }
}
