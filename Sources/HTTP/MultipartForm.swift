/// A parsed `multipart/form-data` body (RFC 7578): text fields and files.
///
/// The body is already bounded by the parser's upload limit; this adds limits on the number
/// of parts and the size of each part's headers, and refuses anything malformed with 400.
public struct MultipartForm: Sendable {
    public struct File: Sendable {
        /// The form field's name.
        public let field: String
        /// The name the browser sent; never trust it for type or path.
        public let filename: String
        /// The declared type; never trust it either.
        public let contentType: String?
        public let data: [UInt8]
    }

    public private(set) var fields = URLEncodedForm()
    public private(set) var files: [File] = []

    public static let maximumParts = 100
    static let maximumPartHeader = 8 * 1024

    /// The boundary of a `multipart/form-data` content type, if it is one.
    public static func boundary(contentType: String) -> String? {
        let parts = contentType.split(separator: ";").map { $0.trimmingSpaces() }
        guard parts.first?.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("boundary=") {
            var value = String(parameter.dropFirst("boundary=".count))
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return (1...70).contains(value.utf8.count) ? value : nil
        }
        return nil
    }

    public init(parsing body: [UInt8], boundary: String) throws(HTTPError) {
        let malformed = HTTPError(.badRequest, message: "Malformed multipart form.")
        let delimiter = Array("--\(boundary)".utf8)
        let separator = [UInt8.cr, .lf] + delimiter
        // The first delimiter may start the body or follow a preamble line.
        guard var cursor = Self.find(delimiter, in: body, from: 0).flatMap({ $0 == 0 || body[..<$0].hasSuffix([.cr, .lf]) ? $0 : nil }) else {
            throw malformed
        }
        cursor += delimiter.count
        var count = 0
        while true {
            guard cursor + 2 <= body.count else { throw malformed }
            if body[cursor] == UInt8(ascii: "-"), body[cursor + 1] == UInt8(ascii: "-") { return }
            while cursor < body.count, body[cursor] == .space || body[cursor] == .tab { cursor += 1 }
            guard cursor + 2 <= body.count, body[cursor] == .cr, body[cursor + 1] == .lf else { throw malformed }
            cursor += 2
            count += 1
            guard count <= Self.maximumParts else { throw HTTPError(.contentTooLarge, message: "Too many parts in the form.") }

            guard let headerEnd = Self.find([.cr, .lf, .cr, .lf], in: body, from: cursor, limit: Self.maximumPartHeader) else {
                throw malformed
            }
            let headers = try Self.partHeaders(body[cursor..<headerEnd])
            let contentStart = headerEnd + 4
            guard let contentEnd = Self.find(separator, in: body, from: contentStart) else { throw malformed }
            try add(headers: headers, content: Array(body[contentStart..<contentEnd]))
            cursor = contentEnd + separator.count
        }
    }

    private mutating func add(headers: [String: String], content: [UInt8]) throws(HTTPError) {
        guard let disposition = headers["content-disposition"], let name = Self.parameter("name", in: disposition) else {
            throw HTTPError(.badRequest, message: "A form part has no name.")
        }
        if let filename = Self.parameter("filename", in: disposition) {
            // A file input left empty still sends a part, with an empty filename and no bytes.
            guard !(filename.isEmpty && content.isEmpty) else { return }
            files.append(File(field: name, filename: filename, contentType: headers["content-type"], data: content))
        } else {
            guard let text = String(validating: content, as: UTF8.self) else {
                throw HTTPError(.badRequest, message: "Text is not valid UTF-8.")
            }
            fields.append(name, text.replacingOccurrences(of: "\r\n", with: "\n"))
        }
    }

    private static func partHeaders(_ bytes: ArraySlice<UInt8>) throws(HTTPError) -> [String: String] {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw HTTPError(.badRequest, message: "Malformed multipart form.")
        }
        var headers: [String: String] = [:]
        for line in text.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { throw HTTPError(.badRequest, message: "Malformed multipart form.") }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingSpaces()
        }
        return headers
    }

    /// A `name="value"` parameter of a Content-Disposition header.
    static func parameter(_ name: String, in header: String) -> String? {
        for part in header.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingSpaces().lowercased() == name else { continue }
            var value = pair[1].trimmingSpaces()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value.replacingOccurrences(of: "\\\"", with: "\"")
        }
        return nil
    }

    /// First index of `needle` in `haystack` at or after `from`, looking at most `limit` bytes.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int, limit: Int = .max) -> Int? {
        guard let first = needle.first else { return nil }
        let last = min(haystack.count - needle.count, from.addingReportingOverflow(limit).overflow ? .max : from + limit)
        guard from <= last else { return nil }
        return haystack.withUnsafeBufferPointer { bytes in
            var index = from
            while index <= last {
                if bytes[index] == first {
                    var matched = 1
                    while matched < needle.count, bytes[index + matched] == needle[matched] { matched += 1 }
                    if matched == needle.count { return index }
                }
                index += 1
            }
            return nil
        }
    }
}

extension ArraySlice where Element == UInt8 {
    func hasSuffix(_ suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self.suffix(suffix.count)) == suffix
    }
}
