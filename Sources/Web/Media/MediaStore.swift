import Foundation
import HTTP
import Network

/// Uploaded images under generated names, outside `Public/`: in a folder on this machine, or
/// in an S3-compatible bucket that every server of the site shares. Either way they are served
/// at `/media/NAME` with the same headers.
///
/// An image is stored for good (fsynced with its folder, or acknowledged by the object store)
/// before the post that uses it is saved, so a post the user was told about never points at a
/// missing image after a crash.
struct MediaStore: Sendable {
    private enum Place: Sendable {
        case folder(String, StaticFiles)
        case bucket(S3Client)
    }

    private let place: Place
    static let cacheControl = "public, max-age=31536000, immutable"

    init(directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        place = .folder(directory, StaticFiles(root: directory, cacheControl: Self.cacheControl))
    }

    init(bucket: S3Client) {
        place = .bucket(bucket)
    }

    /// Writes `image` under a new random name and returns that name.
    func save(_ image: ImageFile) throws -> String {
        let name = Crypto.randomToken(16) + "." + image.format.fileExtension
        switch place {
        case .folder(let directory, _):
            try Self.write(image.data, to: directory + "/" + name, in: directory)
        case .bucket(let bucket):
            do {
                try bucket.put(name, body: image.data, contentType: image.format.mediaType)
            } catch {
                Self.log("storing an image in \(bucket.location.description): \(error)")
                throw Self.unavailable
            }
        }
        return name
    }

    func delete(_ names: [String]) {
        for name in names where Self.isValidName(name) {
            switch place {
            case .folder(let directory, _):
                unlink(directory + "/" + name)
            case .bucket(let bucket):
                // An image left behind is only space: the post that showed it is gone.
                do { try bucket.delete(name) } catch { Self.log("deleting \(name) from \(bucket.location.description): \(error)") }
            }
        }
    }

    /// The response for `GET /media/:name`; nil when there is no such image.
    func response(name: String, request: HTTPRequest) throws -> HTTPResponse? {
        guard Self.isValidName(name) else { return nil }
        var response: HTTPResponse
        switch place {
        case .folder(_, let files):
            var fileRequest = request
            fileRequest.target = "/" + name
            guard let found = files.response(for: fileRequest) else { return nil }
            response = found
        case .bucket(let bucket):
            guard let found = try object(name, from: bucket, request: request) else { return nil }
            response = found
        }
        response.headers.set("Content-Security-Policy", "default-src 'none'; sandbox")
        return response
    }

    /// The object as the folder would serve it: its validators passed through, so a browser
    /// that has it gets a 304 from whichever server it reaches.
    private func object(_ name: String, from bucket: S3Client, request: HTTPRequest) throws -> HTTPResponse? {
        var conditions: [(String, String)] = []
        if let match = request.headers["if-none-match"] {
            conditions.append(("If-None-Match", match))
        } else if let since = request.headers["if-modified-since"] {
            conditions.append(("If-Modified-Since", since))
        }
        let answer: HTTPClientResponse
        do {
            guard let found = try bucket.get(name, conditions: conditions) else { return nil }
            answer = found
        } catch {
            Self.log("reading \(name) from \(bucket.location.description): \(error)")
            throw Self.unavailable
        }
        var headers = HTTPHeaders([
            ("Content-Type", StaticFiles.contentType(for: name)),
            ("Cache-Control", Self.cacheControl),
            ("X-Content-Type-Options", "nosniff"),
        ])
        for validator in ["ETag", "Last-Modified"] {
            if let value = answer.header(validator) { headers.add(validator, value) }
        }
        guard answer.status == 200 else { return HTTPResponse(status: .notModified, headers: headers) }
        headers.add("Accept-Ranges", "none")
        return HTTPResponse(status: .ok, headers: headers, body: answer.body)
    }

    /// The names of every image stored, for a backup.
    func names() throws -> [String] {
        switch place {
        case .folder(let directory, _):
            return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter(Self.isValidName).sorted()
        case .bucket(let bucket):
            return try bucket.names().filter(Self.isValidName).sorted()
        }
    }

    private static func log(_ line: String) {
        FileHandle.standardError.write(Data("media: \(line)\n".utf8))
    }

    private static let unavailable = HTTPError(
        .serviceUnavailable, message: "Images cannot be reached just now. Please try again in a moment.", headers: ["Retry-After": "5"])

    /// Names this store makes: 22 base64url characters and a known extension.
    static func isValidName(_ name: String) -> Bool {
        let parts = name.split(separator: ".")
        return parts.count == 2 && parts[0].utf8.count == 22
            && parts[0].utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F }
            && ["jpg", "png", "webp", "gif"].contains(String(parts[1]))
    }

    /// Writes `data` to a new file at `path` and makes it and its folder durable.
    private static func write(_ data: [UInt8], to path: String, in directory: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var ok = data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, base + offset, buffer.count - offset)
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
        ok = ok && fsync(fd) == 0
        close(fd)
        guard ok, syncDirectory(directory) else {
            unlink(path)
            throw POSIXError(.EIO)
        }
    }

    private static func syncDirectory(_ directory: String) -> Bool {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return fsync(fd) == 0
    }
}
