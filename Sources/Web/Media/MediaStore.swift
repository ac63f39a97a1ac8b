import Foundation
import HTTP

/// Uploaded images on disk, under generated names, outside `Public/`.
///
/// A file is written and fsynced (and so is its folder) before the post that uses it is
/// saved, so a post the user was told about never points at a missing file after a crash.
struct MediaStore: Sendable {
    let directory: String
    let files: StaticFiles

    init(directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        self.directory = directory
        files = StaticFiles(root: directory, cacheControl: "public, max-age=31536000, immutable")
    }

    /// Writes `image` under a new random name and returns that name.
    func save(_ image: ImageFile) throws -> String {
        let name = Crypto.randomToken(16) + "." + image.format.fileExtension
        let path = directory + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var ok = image.data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
        ok = ok && fsync(fd) == 0
        close(fd)
        guard ok, syncDirectory() else {
            unlink(path)
            throw POSIXError(.EIO)
        }
        return name
    }

    func delete(_ names: [String]) {
        for name in names where Self.isValidName(name) { unlink(directory + "/" + name) }
    }

    /// The response for `GET /media/:name`.
    func response(name: String, request: HTTPRequest) -> HTTPResponse? {
        guard Self.isValidName(name) else { return nil }
        var fileRequest = request
        fileRequest.target = "/" + name
        guard var response = files.response(for: fileRequest) else { return nil }
        response.headers.set("Content-Security-Policy", "default-src 'none'; sandbox")
        return response
    }

    /// Names this store makes: 22 base64url characters and a known extension.
    static func isValidName(_ name: String) -> Bool {
        let parts = name.split(separator: ".")
        return parts.count == 2 && parts[0].utf8.count == 22
            && parts[0].utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F }
            && ["jpg", "png", "webp", "gif"].contains(String(parts[1]))
    }

    private func syncDirectory() -> Bool {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return fsync(fd) == 0
    }
}
