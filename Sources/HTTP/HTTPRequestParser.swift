/// An incremental HTTP/1.x request parser, a value type with no I/O.
///
/// Feed it bytes as they arrive with `append(_:)` and call `nextRequest()` until it returns
/// `nil` (more bytes needed). A malformed request throws an `HTTPError` whose status the
/// connection sends before closing. Follows RFC 9112 strictly where leniency enables request
/// smuggling: bare LF, obs-fold, duplicate `Content-Length` and `Transfer-Encoding` together
/// with `Content-Length` are all rejected.
public struct HTTPRequestParser: Sendable {
    public struct Limits: Sendable {
        /// Longest request line (method, target, version); longer gets 414.
        public var requestLine = 8 * 1024
        /// Largest header block after the request line; larger gets 431.
        public var headerBlock = 32 * 1024
        /// Most header fields; more gets 431.
        public var headerCount = 100
        /// Largest body of an ordinary request; larger gets 413.
        public var body = 1024 * 1024
        /// Largest body of a `multipart/form-data` request that `allowsUpload` lets through
        /// (file uploads); larger gets 413.
        public var uploadBody = 30 * 1024 * 1024

        public init() {}
    }

    public let limits: Limits
    /// Decides from a request's head, before any of its body is read, whether it may send a
    /// `multipart/form-data` body up to `limits.uploadBody`; every other body stops at
    /// `limits.body`. Asked only for multipart bodies that need more. By default, none may.
    public var allowsUpload: @Sendable (HTTPRequest) -> Bool = { _ in false }
    private var buffer: [UInt8] = []
    private var start = 0
    private var state = State.head(HeadScan())
    private var continueSent = false

    private enum State: Sendable {
        case head(HeadScan)
        case body(Head, length: Int)
        case chunked(Head, Chunked)
    }

    /// How far the search for the end of the head got, relative to `start`, so that a head
    /// arriving byte by byte is scanned once, not once per byte.
    struct HeadScan: Sendable {
        var offset = 0
        var lineStart = 0
        var requestLineEnd: Int? = nil
        var headerStart = 0
    }

    struct Head: Sendable {
        var method: HTTPMethod
        var target: String
        var version: HTTPVersion
        var headers: HTTPHeaders
    }

    struct Chunked: Sendable {
        var body: [UInt8] = []
        var limit: Int
    }

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// The head of the request being read when the parser last failed, if it got that far
    /// (a 413 knows its method, target and headers); for error pages in the right language.
    public private(set) var failedHead: HTTPRequest?

    /// Bytes received but not yet part of a returned request.
    public var bufferedCount: Int { buffer.count - start }

    /// True once any byte of a request that has not been returned yet has arrived.
    public var hasPartialRequest: Bool {
        if case .head = state { return bufferedCount > 0 }
        return true
    }

    /// Bytes this parser holds for the request being read: what is buffered plus a chunked
    /// body decoded so far. What a memory budget counts.
    public var heldBytes: Int {
        if case .chunked(_, let chunked) = state { return bufferedCount + chunked.body.count }
        return bufferedCount
    }

    /// True while the head is complete and the body is still arriving.
    public var isReadingBody: Bool {
        if case .head = state { return false }
        return true
    }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// True once, when the head asked for `Expect: 100-continue` and the body has not all
    /// arrived: the connection should send `100 Continue` (RFC 9110 §10.1.1).
    public mutating func takeContinueRequest() -> Bool {
        guard !continueSent else { return false }
        let head: Head
        switch state {
        case .head: return false
        case .body(let h, _): head = h
        case .chunked(let h, _): head = h
        }
        guard head.version == .http1_1, head.headers["expect"]?.lowercased() == "100-continue" else { return false }
        continueSent = true
        return true
    }

    /// The next complete request, or `nil` when more bytes are needed.
    public mutating func nextRequest() throws(HTTPError) -> HTTPRequest? {
        while true {
            switch state {
            case .head(let scan):
                guard let head = try parseHead(scan) else { return nil }
                do {
                    try beginBody(head)
                } catch {
                    failedHead = HTTPRequest(method: head.method, target: head.target, version: head.version, headers: head.headers)
                    throw error
                }
            case .body(let head, let length):
                guard bufferedCount >= length else { return nil }
                let body = Array(buffer[start..<start + length])
                start += length
                return finish(head, body: body)
            case .chunked(let head, var chunked):
                state = .head(HeadScan())  // so that `chunked.body` grows without a copy
                let done = try readChunks(&chunked)
                if done { return finish(head, body: chunked.body) }
                state = .chunked(head, chunked)
                return nil
            }
        }
    }

    private mutating func finish(_ head: Head, body: [UInt8]) -> HTTPRequest {
        state = .head(HeadScan())
        continueSent = false
        // After a large body, keep only what follows it: a kept-alive connection must not
        // go on holding an upload's worth of capacity.
        if buffer.capacity > 256 * 1024 {
            buffer = Array(buffer[start...])
            start = 0
        }
        return HTTPRequest(method: head.method, target: head.target, version: head.version, headers: head.headers, body: body)
    }

    // MARK: - Head

    private mutating func parseHead(_ resumed: HeadScan) throws(HTTPError) -> Head? {
        var scan = resumed
        if scan.offset == 0 {
            // RFC 9112 §2.2: ignore empty lines before the request line.
            while bufferedCount >= 2, buffer[start] == .cr, buffer[start + 1] == .lf { start += 2 }
        }
        while start + scan.offset < buffer.count {
            let index = start + scan.offset
            let byte = buffer[index]
            if byte == .lf {
                guard scan.offset > scan.lineStart, buffer[index - 1] == .cr else {
                    throw HTTPError(.badRequest, message: "Line ends with a bare LF.")
                }
                if scan.requestLineEnd == nil {
                    scan.requestLineEnd = scan.offset - 1
                    scan.headerStart = scan.offset + 1
                } else if scan.offset - 1 == scan.lineStart {
                    let head = try makeHead(
                        requestLineEnd: start + scan.requestLineEnd!,
                        headerStart: start + scan.headerStart,
                        headerEnd: start + scan.lineStart
                    )
                    start = index + 1
                    return head
                }
                scan.lineStart = scan.offset + 1
            } else if byte == .cr, index + 1 < buffer.count, buffer[index + 1] != .lf {
                throw HTTPError(.badRequest, message: "Bare CR in the request head.")
            }
            scan.offset += 1
            if scan.requestLineEnd == nil, scan.offset > limits.requestLine {
                throw HTTPError(.uriTooLong)
            }
            if scan.requestLineEnd != nil, scan.offset - scan.headerStart > limits.headerBlock {
                throw HTTPError(.headerFieldsTooLarge)
            }
        }
        state = .head(scan)
        return nil
    }

    private func makeHead(requestLineEnd: Int, headerStart: Int, headerEnd: Int) throws(HTTPError) -> Head {
        let line = buffer[start..<requestLineEnd]
        let parts = line.split(separator: .space, maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw HTTPError(.badRequest, message: "Malformed request line.") }
        let methodBytes = parts[0], targetBytes = parts[1], versionBytes = parts[2]

        guard !methodBytes.isEmpty, methodBytes.allSatisfy(\.isTokenCharacter) else {
            throw HTTPError(.badRequest, message: "Malformed method.")
        }
        let methodName = String(decoding: methodBytes, as: UTF8.self)
        let versionText = String(decoding: versionBytes, as: UTF8.self)
        if methodName == "PRI", versionText == "HTTP/2.0" { throw HTTPError(.httpVersionNotSupported) }
        let version: HTTPVersion
        switch versionText {
        case "HTTP/1.1": version = .http1_1
        case "HTTP/1.0": version = .http1_0
        default:
            if versionText.count == 8, versionText.hasPrefix("HTTP/"),
               versionBytes.dropFirst(5).enumerated().allSatisfy({ $0.offset == 1 ? $0.element == .dot : $0.element.isDigit }) {
                throw HTTPError(.httpVersionNotSupported)
            }
            throw HTTPError(.badRequest, message: "Malformed HTTP version.")
        }
        guard let method = HTTPMethod(rawValue: methodName) else { throw HTTPError(.notImplemented) }

        guard !targetBytes.isEmpty, targetBytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw HTTPError(.badRequest, message: "Malformed request target.")
        }
        var target = String(decoding: targetBytes, as: UTF8.self)
        if !target.hasPrefix("/") {
            target = try originForm(of: target, method: method)
        }

        let headers = try parseFields(from: headerStart, to: headerEnd)
        let hosts = headers.values("host")
        if hosts.count > 1 || (version == .http1_1 && hosts.isEmpty) {
            throw HTTPError(.badRequest, message: "A request needs exactly one Host header.")
        }
        return Head(method: method, target: target, version: version, headers: headers)
    }

    /// Turns an absolute-form or asterisk-form target into a path (RFC 9112 §3.2).
    private func originForm(of target: String, method: HTTPMethod) throws(HTTPError) -> String {
        if target == "*", method == .options { return "*" }
        let lower = target.lowercased()
        for scheme in ["http://", "https://"] where lower.hasPrefix(scheme) {
            let rest = target.dropFirst(scheme.count)
            guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
            let path = String(rest[slash...])
            return path.hasPrefix("?") ? "/" + path : path
        }
        throw HTTPError(.badRequest, message: "Malformed request target.")
    }

    private func parseFields(from begin: Int, to end: Int) throws(HTTPError) -> HTTPHeaders {
        var headers = HTTPHeaders()
        var lineStart = begin
        while lineStart < end {
            var lineEnd = lineStart
            while buffer[lineEnd] != .cr { lineEnd += 1 }
            let line = buffer[lineStart..<lineEnd]
            lineStart = lineEnd + 2
            guard let first = line.first, first != .space, first != .tab else {
                throw HTTPError(.badRequest, message: "Obsolete line folding is not accepted.")
            }
            guard let colon = line.firstIndex(of: .colon), colon > line.startIndex else {
                throw HTTPError(.badRequest, message: "Malformed header field.")
            }
            let nameBytes = line[line.startIndex..<colon]
            guard nameBytes.allSatisfy(\.isTokenCharacter) else {
                throw HTTPError(.badRequest, message: "Malformed header field name.")
            }
            var valueBytes = line[(colon + 1)...]
            while let b = valueBytes.first, b == .space || b == .tab { valueBytes = valueBytes.dropFirst() }
            while let b = valueBytes.last, b == .space || b == .tab { valueBytes = valueBytes.dropLast() }
            guard valueBytes.allSatisfy({ $0 == .tab || ($0 >= 0x20 && $0 != 0x7F) }) else {
                throw HTTPError(.badRequest, message: "Control character in a header field.")
            }
            guard headers.count < limits.headerCount else { throw HTTPError(.headerFieldsTooLarge) }
            headers.add(String(decoding: nameBytes, as: UTF8.self).lowercased(), String(decoding: valueBytes, as: UTF8.self))
        }
        return headers
    }

    // MARK: - Body

    /// `limits.body`, or `limits.uploadBody` for a multipart body larger than that which
    /// `allowsUpload` accepts. `length` is nil for a chunked body (its size is unknown).
    private func bodyLimit(for head: Head, length: Int?) -> Int {
        let type = head.headers["content-type"]?.lowercased() ?? ""
        guard type.hasPrefix("multipart/form-data"), length.map({ $0 > limits.body }) ?? true else { return limits.body }
        let request = HTTPRequest(method: head.method, target: head.target, version: head.version, headers: head.headers)
        return allowsUpload(request) ? max(limits.uploadBody, limits.body) : limits.body
    }

    private mutating func beginBody(_ head: Head) throws(HTTPError) {
        if let expect = head.headers["expect"], expect.lowercased() != "100-continue" {
            throw HTTPError(.expectationFailed)
        }
        let encodings = head.headers.values("transfer-encoding")
        let lengths = head.headers.values("content-length")
        if !encodings.isEmpty {
            guard lengths.isEmpty else {
                throw HTTPError(.badRequest, message: "Both Transfer-Encoding and Content-Length.")
            }
            guard head.version == .http1_1 else {
                throw HTTPError(.badRequest, message: "Transfer-Encoding in an HTTP/1.0 request.")
            }
            let codings = encodings.flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces().lowercased() }
            guard codings == ["chunked"] else { throw HTTPError(.notImplemented, message: "Unsupported transfer coding.") }
            state = .chunked(head, Chunked(limit: bodyLimit(for: head, length: nil)))
            return
        }
        guard lengths.count <= 1 else { throw HTTPError(.badRequest, message: "Repeated Content-Length.") }
        guard let text = lengths.first else {
            state = .body(head, length: 0)
            return
        }
        guard !text.isEmpty, text.utf8.allSatisfy(\.isDigit) else {
            throw HTTPError(.badRequest, message: "Malformed Content-Length.")
        }
        guard text.utf8.count <= 12, let length = Int(text), length <= bodyLimit(for: head, length: length) else {
            throw HTTPError(.contentTooLarge)
        }
        state = .body(head, length: length)
    }

    /// Reads as many chunks as are buffered; true when the last chunk and trailers are in.
    private mutating func readChunks(_ chunked: inout Chunked) throws(HTTPError) -> Bool {
        while true {
            guard let lineEnd = try crlf(from: start, limit: 1024) else { return false }
            let line = buffer[start..<lineEnd]
            let sizeBytes = line.prefix { $0 != .semicolon }
            guard !sizeBytes.isEmpty, sizeBytes.count <= 8, sizeBytes.allSatisfy(\.isHexDigit),
                  let size = Int(String(decoding: sizeBytes, as: UTF8.self), radix: 16) else {
                throw HTTPError(.badRequest, message: "Malformed chunk size.")
            }
            if size == 0 {
                // Trailer fields are read and dropped, up to the header-block limit.
                var cursor = lineEnd + 2
                while true {
                    guard let end = try crlf(from: cursor, limit: limits.headerBlock) else { return false }
                    if end == cursor {
                        start = end + 2
                        return true
                    }
                    cursor = end + 2
                }
            }
            guard chunked.body.count + size <= chunked.limit else { throw HTTPError(.contentTooLarge) }
            let dataStart = lineEnd + 2
            guard buffer.count >= dataStart + size + 2 else { return false }
            guard buffer[dataStart + size] == .cr, buffer[dataStart + size + 1] == .lf else {
                throw HTTPError(.badRequest, message: "Chunk data does not end with CRLF.")
            }
            chunked.body.append(contentsOf: buffer[dataStart..<dataStart + size])
            start = dataStart + size + 2
        }
    }

    /// Index of the CR of the next CRLF at or after `from`, nil if not yet buffered.
    private func crlf(from: Int, limit: Int) throws(HTTPError) -> Int? {
        var index = from
        while index < buffer.count {
            if buffer[index] == .lf {
                guard index > from, buffer[index - 1] == .cr else {
                    throw HTTPError(.badRequest, message: "Line ends with a bare LF.")
                }
                return index - 1
            }
            index += 1
            if index - from > limit { throw HTTPError(.badRequest, message: "Chunk line too long.") }
        }
        return nil
    }
}
