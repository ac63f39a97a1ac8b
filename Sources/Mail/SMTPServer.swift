import Foundation

/// Where mail is handed over: `smtp://user:pass@host:port` (STARTTLS when the server offers
/// it, port 587 by default) or `smtps://…` (TLS from the first byte, port 465 by default).
public struct SMTPServer: Sendable, Equatable {
    public enum Security: Sendable, Equatable {
        /// Plain TCP, upgraded with STARTTLS whenever the server offers it.
        case startTLSWhenOffered
        /// TLS from the start (RFC 8314's "implicit TLS").
        case implicitTLS
    }

    public let host: String
    public let port: Int
    public let username: String?
    public let password: String?
    public let security: Security

    /// Parses the URL; nil when it is not one of the two forms above. The user name and
    /// password are percent-decoded (`%40` for an `@` inside them).
    public init?(url text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              let host = components.host, !host.isEmpty, components.path.isEmpty || components.path == "/",
              components.query == nil, components.fragment == nil
        else { return nil }
        switch scheme {
        case "smtp": security = .startTLSWhenOffered
        case "smtps": security = .implicitTLS
        default: return nil
        }
        let port = components.port ?? (security == .implicitTLS ? 465 : 587)
        guard (1...65_535).contains(port) else { return nil }
        // Brackets around an IPv6 literal are the URL's, not the address's.
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.port = port
        username = components.percentEncodedUser.flatMap { $0.removingPercentEncoding }
        password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        let credentials = [username, password].compactMap { $0 }
        guard credentials.allSatisfy({ !$0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }) else { return nil }
    }

    /// A loopback server may be given credentials without TLS; any other is not.
    var isLoopback: Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1"
    }
}
