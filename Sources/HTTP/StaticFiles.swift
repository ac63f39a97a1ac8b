import Foundation

/// Serves files under a root folder with validators and caching headers.
///
/// Paths are percent-decoded segment by segment; any segment that is empty, `.`, `..`, hidden
/// or holds a slash or NUL after decoding is refused, and the resolved file must still lie
/// inside the root, so neither `..` nor symlinks escape it.
public struct StaticFiles: Sendable {
    public let root: String
    public let cacheControl: String

    public init(root: String, cacheControl: String = "public, max-age=3600") {
        self.root = (root as NSString).standardizingPath.resolvingSymlinks
        self.cacheControl = cacheControl
    }

    /// The response for `request`, or `nil` when there is no such file.
    public func response(for request: HTTPRequest) -> HTTPResponse? {
        guard request.method == .get || request.method == .head,
              let path = safePath(request.path),
              let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = attributes[.size] as? Int,
              let modified = attributes[.modificationDate] as? Date
        else { return nil }

        // A file's time comes from the file system: checked, never trusted to fit an Int.
        let seconds = Int(exactly: modified.timeIntervalSince1970.rounded(.down)) ?? 0
        let etag = "\"\(String(size, radix: 16))-\(String(seconds, radix: 16))\""
        let lastModified = HTTPDate.format(seconds)
        var headers = HTTPHeaders([
            ("Content-Type", Self.contentType(for: path)),
            ("ETag", etag),
            ("Last-Modified", lastModified),
            ("Cache-Control", cacheControl),
            ("X-Content-Type-Options", "nosniff"),
        ])
        if let match = request.headers["if-none-match"] {
            if EntityTag.matches(match, etag) {
                return HTTPResponse(status: .notModified, headers: headers)
            }
        } else if request.headers["if-modified-since"] == lastModified {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        headers.add("Accept-Ranges", "none")
        return HTTPResponse(status: .ok, headers: headers, body: [UInt8](data))
    }

    private func safePath(_ requestPath: String) -> String? {
        var parts: [String] = []
        for segment in requestPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            guard let name = try? PercentDecoding.decode(Array(segment.utf8)),
                  !name.isEmpty, !name.hasPrefix("."), !name.contains("/"), !name.contains("\0")
            else { return nil }
            parts.append(name)
        }
        guard !parts.isEmpty else { return nil }
        let path = (root + "/" + parts.joined(separator: "/")).resolvingSymlinks
        guard path.hasPrefix(root + "/") else { return nil }
        return path
    }

    public static func contentType(for path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "html": "text/html; charset=utf-8"
        case "txt": "text/plain; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "ico": "image/x-icon"
        case "json": "application/json"
        case "webmanifest": "application/manifest+json"
        case "woff2": "font/woff2"
        default: "application/octet-stream"
        }
    }
}

extension String {
    var resolvingSymlinks: String { (self as NSString).resolvingSymlinksInPath }
}
