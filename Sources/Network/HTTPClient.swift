import Foundation

/// Where an HTTP client connects: `http://host[:port]` or `https://host[:port]`.
public struct HTTPEndpoint: Sendable, Equatable {
    public var isSecure: Bool
    public var host: String
    public var port: Int

    public init(isSecure: Bool, host: String, port: Int) {
        self.isSecure = isSecure
        self.host = host
        self.port = port
    }

    /// nil unless `text` is an http or https URL with a host, an optional port in 1…65535 and
    /// no path, query or user part.
    public init?(_ text: String) {
        let rest: Substring
        if text.hasPrefix("https://") {
            isSecure = true
            rest = text.dropFirst(8)
        } else if text.hasPrefix("http://") {
            isSecure = false
            rest = text.dropFirst(7)
        } else {
            return nil
        }
        let authority = rest.hasSuffix("/") ? rest.dropLast() : rest
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:[]")
        guard !authority.isEmpty, authority.allSatisfy(allowed.contains) else { return nil }
        var hostPart = authority
        var portPart: Substring?
        if authority.hasPrefix("[") {
            // An IPv6 literal: [::1]:9000
            guard let close = authority.firstIndex(of: "]") else { return nil }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portPart = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty else { return nil }
        host = String(hostPart)
        if let portPart {
            guard portPart.utf8.count <= 5, let number = Int(portPart), (1...65_535).contains(number) else { return nil }
            port = number
        } else {
            port = isSecure ? 443 : 80
        }
    }

    /// Splits an absolute http(s) URL into where to connect and the request target (path and
    /// query, "/" when empty); nil for anything else, fragments and user parts included.
    public static func split(_ url: String) -> (endpoint: HTTPEndpoint, target: String)? {
        let schemeLength = url.hasPrefix("https://") ? 8 : url.hasPrefix("http://") ? 7 : 0
        guard schemeLength > 0, url.utf8.count <= 2048, !url.contains("#"),
              url.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else { return nil }
        let afterScheme = url.index(url.startIndex, offsetBy: schemeLength)
        let pathStart = url[afterScheme...].firstIndex { $0 == "/" || $0 == "?" } ?? url.endIndex
        guard let endpoint = HTTPEndpoint(String(url[..<pathStart])) else { return nil }
        let rest = String(url[pathStart...])
        return (endpoint, rest.isEmpty ? "/" : rest.hasPrefix("?") ? "/" + rest : rest)
    }

    /// The `Host` header's value: the port only when it is not the scheme's own.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (isSecure ? 443 : 80) ? name : "\(name):\(port)"
    }
}

/// A small blocking HTTP/1.1 client for talking to one kind of server (an object store): one
/// connection per request, closed after the answer, every wait bounded by `timeout` seconds
/// and every answer by `maximumBodySize`.
public struct HTTPClient: Sendable {
    public var endpoint: HTTPEndpoint
    public var timeout: Int
    /// A PEM file of certificates to trust beside the system's.
    public var trustedCertificates: String?

    public init(endpoint: HTTPEndpoint, timeout: Int = 10, trustedCertificates: String? = nil) {
        self.endpoint = endpoint
        self.timeout = timeout
        self.trustedCertificates = trustedCertificates
    }

    /// Sends one request. `target` is the path and query as they go on the request line,
    /// already percent-encoded; `headers` must not repeat Host, Content-Length or Connection.
    public func send(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = [],
        maximumBodySize: Int = 64 << 20
    ) throws(TransportError) -> HTTPClientResponse {
        let transport = try TCPTransport(host: endpoint.host, port: endpoint.port, timeout: timeout)
        if endpoint.isSecure { try transport.startTLS(host: endpoint.host, trusting: trustedCertificates) }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(endpoint.hostHeader)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "PUT" || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        try transport.write(Array(head.utf8) + body)

        var received: [UInt8] = []
        let limit = maximumBodySize + HTTPClientResponse.maximumHeadSize
        while true {
            let bytes = try transport.read(upTo: 65_536)
            if bytes.isEmpty { break }
            received += bytes
            guard received.count <= limit else { throw TransportError("the answer is larger than \(maximumBodySize) bytes") }
        }
        do {
            return try HTTPClientResponse(parsing: received, toA: method)
        } catch {
            throw TransportError("\(endpoint.host) answered something that is not HTTP (\(error))")
        }
    }
}
