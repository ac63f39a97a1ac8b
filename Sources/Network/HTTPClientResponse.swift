/// An answer read whole from a connection the server closed after it (RFC 9112): the status
/// line, the header fields, and the body by `Transfer-Encoding: chunked`, by `Content-Length`,
/// or up to the end.
public struct HTTPClientResponse: Sendable, Equatable {
    public var status: Int
    /// Names in lowercase, in the order they came.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    static let maximumHeadSize = 64 << 10

    public enum ParseError: Error, Equatable {
        case incomplete, malformedStatusLine, malformedHeader, malformedLength, malformedChunk
    }

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header field, by its name in any case.
    public func header(_ name: String) -> String? {
        let lowercased = name.lowercased()
        return headers.first { $0.name == lowercased }?.value
    }

    public init(parsing bytes: [UInt8], toA method: String) throws(ParseError) {
        let terminator: [UInt8] = [13, 10, 13, 10]
        guard let headEnd = Self.firstIndex(of: terminator, in: bytes[...], limit: Self.maximumHeadSize) else {
            throw .incomplete
        }
        let lines = bytes[..<headEnd].split(separator: 10, omittingEmptySubsequences: false).map { line in
            line.last == 13 ? line.dropLast() : line
        }
        guard let statusLine = lines.first else { throw .malformedStatusLine }
        // HTTP/1.1 200 OK
        let parts = statusLine.split(separator: 32, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].starts(with: Array("HTTP/1.".utf8)), parts[1].count == 3,
              parts[1].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let status = Int(String(decoding: parts[1], as: UTF8.self))
        else { throw .malformedStatusLine }
        self.status = status

        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: 58), colon > line.startIndex else { throw .malformedHeader }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            let value = String(decoding: line[line.index(after: colon)...], as: UTF8.self).trimmingSpaces
            guard !name.contains(" ") else { throw .malformedHeader }
            headers.append((name, value))
        }
        self.headers = headers
        func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }

        let rest = bytes[(headEnd + 4)...]
        if method == "HEAD" || status == 204 || status == 304 || (100..<200).contains(status) {
            body = []
        } else if header("transfer-encoding")?.lowercased().hasSuffix("chunked") == true {
            body = try Self.dechunked(rest)
        } else if let length = header("content-length") {
            guard length.utf8.count <= 18, length.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let count = Int(length) else {
                throw .malformedLength
            }
            guard rest.count >= count else { throw .incomplete }
            body = Array(rest.prefix(count))
        } else {
            body = Array(rest)
        }
    }

    public static func == (left: Self, right: Self) -> Bool {
        left.status == right.status && left.body == right.body
            && left.headers.map { [$0.name, $0.value] } == right.headers.map { [$0.name, $0.value] }
    }

    /// A chunked body (RFC 9112 §7.1): hex size, optional extensions, CRLF, data, CRLF … 0.
    private static func dechunked(_ bytes: ArraySlice<UInt8>) throws(ParseError) -> [UInt8] {
        var output: [UInt8] = []
        var position = bytes.startIndex
        while true {
            guard let lineEnd = firstIndex(of: [13, 10], in: bytes[position...], limit: 1_024) else { throw .incomplete }
            let sizeText = bytes[position..<lineEnd].prefix { $0 != 59 }  // up to any ";extension"
            guard !sizeText.isEmpty, sizeText.count <= 15,
                  let size = Int(String(decoding: sizeText, as: UTF8.self).trimmingSpaces, radix: 16), size >= 0
            else { throw .malformedChunk }
            let start = lineEnd + 2
            if size == 0 { return output }
            guard bytes.endIndex - start >= size + 2 else { throw .incomplete }
            output += bytes[start..<(start + size)]
            guard bytes[start + size] == 13, bytes[start + size + 1] == 10 else { throw .malformedChunk }
            position = start + size + 2
        }
    }

    /// Where `needle` first starts in `haystack`, looking no further than `limit` bytes in.
    private static func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>, limit: Int) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        let last = min(haystack.endIndex - needle.count, haystack.startIndex + limit)
        var index = haystack.startIndex
        while index <= last {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
