/// Fields of an `application/x-www-form-urlencoded` body or a query string (WHATWG URL §5),
/// in order, with repeated keys kept.
public struct URLEncodedForm: Sendable {
    public private(set) var fields: [(name: String, value: String)] = []

    public init() {}

    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// Parses `a=1&b=two+words&c=%ED%95%9C`; throws 400 on a broken `%` escape or invalid UTF-8.
    public init(parsing text: String) throws(HTTPError) {
        try self.init(parsing: Array(text.utf8))
    }

    public init(parsing bytes: [UInt8]) throws(HTTPError) {
        for pair in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = try PercentDecoding.decode(parts[0], plusIsSpace: true)
            let value = parts.count > 1 ? try PercentDecoding.decode(parts[1], plusIsSpace: true) : ""
            fields.append((name: name, value: value))
        }
    }

    public mutating func append(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// The first value for `name`.
    public subscript(name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// Every value for `name`, in order (checkbox groups, multi-selects).
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }
}

/// Percent-decoding of URL components.
public enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as a space when asked); throws 400 on malformed input.
    public static func decode(_ bytes: some Collection<UInt8>, plusIsSpace: Bool = false) throws(HTTPError) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    throw HTTPError(.badRequest, message: "Malformed percent-encoding.")
                }
                output.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                output.append(UInt8(ascii: " "))
            default:
                output.append(byte)
            }
        }
        guard let text = String(validating: output, as: UTF8.self) else {
            throw HTTPError(.badRequest, message: "Text is not valid UTF-8.")
        }
        return text
    }

    public static func decode(_ text: String) throws(HTTPError) -> String {
        try decode(Array(text.utf8))
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}

/// Percent-encoding for building URLs from user values.
public enum PercentEncoding {
    /// Encodes everything but RFC 3986 unreserved characters.
    public static func encode(_ text: String) -> String {
        // Usernames and most values need nothing: the same string, no copy.
        guard !text.utf8.allSatisfy(isUnreserved) else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                output.append(byte)
            } else {
                output += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// RFC 3986's unreserved characters, which stand for themselves.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }
}
