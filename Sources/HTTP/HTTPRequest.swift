/// A complete request: its head as parsed, its whole body, and what the router found in its path.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The request target exactly as sent, e.g. `/u/mina?tab=posts`.
    public var target: String
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Values of the route's `:name` segments, percent-decoded.
    public var parameters: [String: String] = [:]
    /// The client's IP address: the peer's, or behind a trusted proxy the client it names
    /// (`TrustedProxies`); an empty string for in-process requests.
    public var remoteAddress: String = ""
    /// The client reached a trusted proxy over HTTPS (`X-Forwarded-Proto: https`).
    public var isSecure = false
    /// A short id that ties the access log line to error logs.
    public var id: String = ""

    public init(
        method: HTTPMethod,
        target: String,
        version: HTTPVersion = .http1_1,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text, for tests and logs.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The path part of the target, still percent-encoded.
    public var path: String {
        if let question = target.firstIndex(of: "?") { return String(target[..<question]) }
        return target
    }

    /// The query part of the target without the `?`, or an empty string.
    public var queryString: String {
        if let question = target.firstIndex(of: "?") { return String(target[target.index(after: question)...]) }
        return ""
    }

    /// Query parameters; a malformed query yields no parameters rather than an error.
    public var query: URLEncodedForm {
        (try? URLEncodedForm(parsing: queryString)) ?? URLEncodedForm()
    }

    /// Whether the connection may stay open after this request (RFC 9112 §9.3).
    public var keepAlive: Bool {
        let tokens = headers.values("connection").flatMap { $0.lowercased().split(separator: ",") }
            .map { $0.trimmingSpaces() }
        switch version {
        case .http1_1: return !tokens.contains("close")
        case .http1_0: return tokens.contains("keep-alive")
        }
    }

    /// Cookies sent with the request, by name; the first of repeated names wins.
    public var cookies: [String: String] {
        Cookies.parse(headers.values("cookie"))
    }
}

extension Substring {
    /// Without the spaces and tabs at either end; by bytes, as a header's whitespace is ASCII.
    func trimmingSpaces() -> String {
        String(Substring(utf8.trimmingSpaces()))
    }
}

extension Substring.UTF8View {
    /// Without the spaces and tabs at either end.
    func trimmingSpaces() -> Substring.UTF8View {
        var bytes = self
        while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { bytes = bytes.dropLast() }
        return bytes
    }
}
