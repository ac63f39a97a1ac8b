import HTTP
import Network
import Storage

/// `moim backup` and `moim restore` for this site: Storage's archive with the media store's
/// rules for which files are images and of what type.
extension Backup {
    public static func write(data: String, postgres: String? = nil, bucket: S3Client? = nil, to output: String) throws -> Summary {
        try write(data: data, postgres: postgres, bucket: bucket, to: output, media: media)
    }

    public static func restore(archive: String, to data: String, postgres: String? = nil, bucket: S3Client? = nil, force: Bool) throws -> Summary {
        try restore(archive: archive, to: data, postgres: postgres, bucket: bucket, force: force, media: media)
    }

    private static let media = MediaFiles(isImage: MediaStore.isValidName, contentType: StaticFiles.contentType(for:))
}
