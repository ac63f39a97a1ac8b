import Formats
import Foundation
import HTTP
import Imaging
import Network

/// Uploaded images under generated names, outside `Public/`: in a folder on this machine, or
/// in an S3-compatible bucket that every server of the site shares. Either way they are served
/// at `/media/NAME` with the same headers.
///
/// An image and its variants (`ImageSources`) are stored for good (fsynced with their folder,
/// or acknowledged by the object store) before the post that uses them is saved, so a post the
/// user was told about never points at a missing image after a crash.
struct MediaStore: Sendable {
    private enum Place: Sendable {
        case folder(String, StaticFiles)
        case bucket(S3Client)
    }

    private let place: Place
    let images: ImageProcessor
    /// Makes one missing variant at a time, so that a variant asked for by many at once is made once.
    private let making = NSLock()
    static let cacheControl = "public, max-age=31536000, immutable"

    init(directory: String, images: ImageProcessor) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        place = .folder(directory, StaticFiles(root: directory, cacheControl: Self.cacheControl))
        self.images = images
    }

    init(bucket: S3Client, images: ImageProcessor) {
        place = .bucket(bucket)
        self.images = images
    }

    /// Stores `image` and its variants under a new random name and returns the original's name.
    func save(_ image: ProcessedImage) throws -> String {
        let token = Crypto.randomToken(16)
        let name = token + "." + image.format.fileExtension
        var files = [(name, image.original, image.format.mediaType)]
        for variant in image.variants {
            let width = variant.width == image.width ? nil : variant.width
            files.append((ImageSources.variantName(token: token, width: width, format: variant.format), variant.data, variant.format.mediaType))
        }
        do {
            for (fileName, data, type) in files { try write(data, as: fileName, type: type) }
            try synchronize()
        } catch {
            delete([name])
            throw error
        }
        return name
    }

    /// Deletes these originals and every variant of them.
    func delete(_ names: [String]) {
        for name in names where Self.isValidName(name) {
            for file in [name] + ImageSources.variantNames(of: name) { remove(file) }
        }
    }

    /// The response for `GET /media/:name`; nil when there is no such image. A variant not
    /// made yet (an image from before variants) is made from its original now, once.
    func response(name: String, request: HTTPRequest) throws -> HTTPResponse? {
        guard Self.isValidName(name) else { return nil }
        if let found = try stored(name, request: request) { return found }
        guard let variant = ImageSources.variant(name), try makeVariant(variant, named: name) else { return nil }
        return try stored(name, request: request)
    }

    // MARK: - Data exports

    /// Stores a member's data export under a new random name (`….zip`, never served at
    /// `/media/`): beside the photos, so that every server sharing them can hand it out.
    func saveExport(_ zip: [UInt8]) throws -> String {
        let name = Crypto.randomToken(16) + ".zip"
        try write(zip, as: name, type: "application/zip")
        try synchronize()
        return name
    }

    /// A stored export's bytes; nil when gone.
    func export(named name: String) throws -> [UInt8]? {
        guard Self.isExportName(name) else { return nil }
        return try read(name)
    }

    func deleteExport(_ name: String) {
        if Self.isExportName(name) { remove(name) }
    }

    /// A photo's original bytes, for a member's export.
    func original(named name: String) throws -> [UInt8]? {
        guard Self.isValidName(name), ImageSources.variant(name) == nil else { return nil }
        return try read(name)
    }

    static func isExportName(_ name: String) -> Bool {
        name.hasSuffix(".zip") && isToken(name.dropLast(4))
    }

    /// The names of every image and variant stored, for a backup.
    func names() throws -> [String] {
        switch place {
        case .folder(let directory, _):
            return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter(Self.isValidName).sorted()
        case .bucket(let bucket):
            return try bucket.names().filter(Self.isValidName).sorted()
        }
    }

    /// Names this store makes: 22 base64url characters and a known extension, or a variant's.
    static func isValidName(_ name: String) -> Bool {
        if let variant = ImageSources.variant(name) { return isToken(variant.token) }
        let parts = name.split(separator: ".")
        return parts.count == 2 && isToken(parts[0]) && ["jpg", "png", "webp", "gif"].contains(String(parts[1]))
    }

    /// 22 base64url characters: 16 random bytes.
    private static func isToken(_ text: some StringProtocol) -> Bool {
        Checked.isToken(text, lengths: 22...22)
    }

    // MARK: - Variants

    /// Makes the variants pages ask for of a stored image that lacks them (one stored before
    /// variants existed); returns how many it made. Safe while the site serves: a variant is
    /// written under its own new name, never over one.
    func makeMissingVariants(of fileName: String, width: Int, jpegWidths: [Int] = []) throws -> Int {
        guard Self.isValidName(fileName), ImageSources.variant(fileName) == nil else { return 0 }
        var made = 0
        for name in ImageSources.variantsShown(of: fileName, width: width, jpegWidths: jpegWidths) {
            guard let variant = ImageSources.variant(name), try !exists(name) else { continue }
            if try makeVariant(variant, named: name) { made += 1 }
        }
        return made
    }

    private func makeVariant(_ variant: ImageSources.Variant, named name: String) throws -> Bool {
        making.lock()
        defer { making.unlock() }
        if try exists(name) { return true }
        guard let (original, _) = try ["jpg", "webp", "png", "gif"].lazy.compactMap({ ext in
            try self.read(variant.token + "." + ext).map { ($0, ext) }
        }).first else { return false }
        let data: [UInt8]
        do {
            data = try images.variant(of: original, width: variant.width ?? ImageProcessor.maximumSide, format: variant.format)
        } catch .busy {
            throw App.imagesBusy
        } catch {
            Self.log("cannot make \(name) from its original: \(error)")
            return false
        }
        try write(data, as: name, type: variant.format.mediaType)
        try synchronize()
        return true
    }

    // MARK: - The folder or the bucket

    private func stored(_ name: String, request: HTTPRequest) throws -> HTTPResponse? {
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

    private func exists(_ name: String) throws -> Bool {
        if case .folder(let directory, _) = place { return FileManager.default.fileExists(atPath: directory + "/" + name) }
        return try read(name) != nil
    }

    private func read(_ name: String) throws -> [UInt8]? {
        switch place {
        case .folder(let directory, _):
            return FileManager.default.contents(atPath: directory + "/" + name).map { [UInt8]($0) }
        case .bucket(let bucket):
            do {
                return try bucket.get(name)?.body
            } catch {
                Self.log("reading \(name) from \(bucket.location.description): \(error)")
                throw Self.unavailable
            }
        }
    }

    /// Writes a new file (never replacing one: names are random, and a variant made twice is the same).
    private func write(_ data: [UInt8], as name: String, type: String) throws {
        switch place {
        case .folder(let directory, _):
            let path = directory + "/" + name
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd < 0, errno == EEXIST { return }
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
            guard ok else {
                unlink(path)
                throw POSIXError(.EIO)
            }
        case .bucket(let bucket):
            do {
                try bucket.put(name, body: data, contentType: type)
            } catch {
                Self.log("storing \(name) in \(bucket.location.description): \(error)")
                throw Self.unavailable
            }
        }
    }

    /// Makes the new files' names durable (the folder's entry), after their contents.
    private func synchronize() throws {
        guard case .folder(let directory, _) = place else { return }
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw POSIXError(.EIO) }
    }

    private func remove(_ name: String) {
        switch place {
        case .folder(let directory, _):
            unlink(directory + "/" + name)
        case .bucket(let bucket):
            // An image left behind is only space: the post that showed it is gone.
            do { try bucket.delete(name) } catch { Self.log("deleting \(name) from \(bucket.location.description): \(error)") }
        }
    }

    private static func log(_ line: String) {
        FileHandle.standardError.write(Data("media: \(line)\n".utf8))
    }

    private static let unavailable = HTTPError(
        .serviceUnavailable, message: "Images cannot be reached just now. Please try again in a moment.", headers: ["Retry-After": "5"])
}
