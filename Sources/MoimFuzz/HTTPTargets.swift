import Foundation
@testable import HTTP

enum HTTPTargets {
    /// The request parser, fed in two pieces to exercise resumption; every request drained.
    static func request(_ bytes: UnsafeBufferPointer<UInt8>) {
        var limits = HTTPRequestParser.Limits()
        limits.body = 4096
        limits.uploadBody = 8192
        var parser = HTTPRequestParser(limits: limits)
        parser.allowsUpload = { $0.path == "/upload" }
        let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
        parser.append(Array(bytes[0..<split]))
        while (try? parser.nextRequest()) != nil {}
        parser.append(Array(bytes[split...]))
        while let request = try? parser.nextRequest() {
            _ = request.query
            _ = request.cookies
            _ = request.keepAlive
            if request.body.count > (request.path == "/upload" ? 8192 : 4096) { violated("a body past its limit") }
        }
    }

    /// `multipart/form-data` bodies; the first byte picks a boundary so that both short and
    /// long ones are tried.
    /// `X-Forwarded-For` / `-Proto` from a trusted proxy: the client found is the peer or one
    /// of the hops sent, always an address, never a trusted proxy unless every hop is one.
    static func forwardedFor(_ bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        let proxies = TrustedProxies(["127.0.0.1", "10.0.0.0/8", "fd00::/8"].compactMap(AddressRange.init))
        var headers = HTTPHeaders()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(8) { headers.add("X-Forwarded-For", String(line)) }
        headers.add("X-Forwarded-Proto", String(text.suffix(8)))
        let found = proxies.client(peer: "127.0.0.1", headers: headers)
        guard found.address == "127.0.0.1" || text.contains(found.address), AddressRange.bytes(found.address) != nil else {
            violated("a client address that was not sent: \(found.address)")
        }
        _ = AddressRange(String(text.prefix(64)))?.contains(String(text.suffix(40)))
    }

    /// `If-None-Match` against a page's tag: a header naming the tag (weak or strong, among
    /// others, or `*`) matches it; one that names no tag of it never does.
    static func ifNoneMatch(_ bytes: UnsafeBufferPointer<UInt8>) {
        let header = String(decoding: bytes, as: UTF8.self)
        let tag = "W/\"5eed\""
        let matched = EntityTag.matches(header, tag)
        if !header.contains("5eed"), !header.contains("*"), matched { violated("a header without the tag matched it") }
        if !EntityTag.matches(header + ", " + tag, tag) { violated("a header ending in the tag did not match") }
        if !EntityTag.matches("\"5eed\", " + header, tag) { violated("a header starting with the tag did not match") }
    }

    static func multipart(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let first = bytes.first else { return }
        let boundary = first % 2 == 0 ? "x" : "----WebKitFormBoundary7MA4YWxkTrZu0gW"
        guard let form = try? MultipartForm(parsing: Array(bytes.dropFirst()), boundary: boundary) else { return }
        if form.files.contains(where: { $0.data.count > bytes.count }) { violated("a file larger than the body") }
    }

    static func urlEncoded(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let form = try? URLEncodedForm(parsing: Array(bytes)) else { return }
        // What a form held survives encoding and parsing again.
        let encoded = form.fields.map { PercentEncoding.encode($0.name) + "=" + PercentEncoding.encode($0.value) }.joined(separator: "&")
        guard let again = try? URLEncodedForm(parsing: encoded), again.fields.count == form.fields.count else { violated("url-encoded round trip") }
    }

    static func cookies(_ bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = Cookies.parse(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }

    /// Static-file paths: whatever the path, nothing outside the root is served.
    static func staticPath(_ bytes: UnsafeBufferPointer<UInt8>) {
        let target = "/" + String(decoding: bytes, as: UTF8.self)
        guard target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return }
        let request = HTTPRequest(method: .get, target: target)
        if let response = StaticSandbox.files.response(for: request), response.body == StaticSandbox.secret {
            violated("served a file outside the root")
        }
    }
}

/// A root with one file and a secret beside it, made once per run.
enum StaticSandbox {
    static let secret = Array("outside the root".utf8)
    static let files: StaticFiles = {
        let base = NSTemporaryDirectory() + "moim-fuzz-static-\(getpid())"
        try? FileManager.default.createDirectory(atPath: base + "/root/css", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: base + "/root/css/site.css", contents: Data("body{}".utf8))
        FileManager.default.createFile(atPath: base + "/secret.txt", contents: Data(secret))
        FileManager.default.createFile(atPath: base + "/root/.hidden", contents: Data(secret))
        try? FileManager.default.createSymbolicLink(atPath: base + "/root/link", withDestinationPath: base + "/secret.txt")
        return StaticFiles(root: base + "/root")
    }()
}
