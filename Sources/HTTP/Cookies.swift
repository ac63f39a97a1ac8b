/// Reading the `Cookie` header and writing `Set-Cookie` (RFC 6265).
public enum Cookies {
    /// Name/value pairs from every `Cookie` header; the first of a repeated name wins.
    public static func parse(_ headers: [String]) -> [String: String] {
        var cookies: [String: String] = [:]
        for header in headers {
            for pair in header.split(separator: ";") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let name = pair[..<equals].trimmingSpaces()
                var value = pair[pair.index(after: equals)...].trimmingSpaces()
                if value.utf8.count >= 2, value.utf8.first == UInt8(ascii: "\""), value.utf8.last == UInt8(ascii: "\"") {
                    value = String(value.dropFirst().dropLast())
                }
                guard !name.isEmpty, cookies[name] == nil else { continue }
                cookies[name] = value
            }
        }
        return cookies
    }
}

/// One `Set-Cookie` header value.
public struct SetCookie: Sendable {
    /// `none` only with `secure`: browsers drop a `SameSite=None` cookie that is not `Secure`.
    public enum SameSite: String, Sendable { case strict = "Strict", lax = "Lax", none = "None" }

    public var name: String
    public var value: String
    public var maxAge: Int?
    public var path = "/"
    public var httpOnly = true
    public var secure = false
    public var sameSite = SameSite.lax

    public init(name: String, value: String, maxAge: Int? = nil, secure: Bool = false) {
        self.name = name
        self.value = value
        self.maxAge = maxAge
        self.secure = secure
    }

    /// A cookie that makes the browser forget `name` at once.
    public static func expired(_ name: String, secure: Bool = false) -> SetCookie {
        SetCookie(name: name, value: "", maxAge: 0, secure: secure)
    }

    public var headerValue: String {
        var parts = ["\(name)=\(value)", "Path=\(path)"]
        if let maxAge { parts.append("Max-Age=\(maxAge)") }
        if httpOnly { parts.append("HttpOnly") }
        if secure { parts.append("Secure") }
        parts.append("SameSite=\(sameSite.rawValue)")
        return parts.joined(separator: "; ")
    }
}

extension HTTPResponse {
    public mutating func setCookie(_ cookie: SetCookie) {
        headers.add("Set-Cookie", cookie.headerValue)
    }
}
