import Foundation

/// Where objects go: `s3://BUCKET/PREFIX` (the prefix may be empty).
public struct S3Location: Sendable, Equatable {
    public var bucket: String
    /// Empty, or ending in `/`.
    public var prefix: String

    /// nil unless `url` is `s3://` and a valid bucket name (3–63 of a–z, 0–9, `.` and `-`,
    /// starting and ending with a letter or digit), then an optional prefix.
    public init?(url: String) {
        guard url.hasPrefix("s3://") else { return nil }
        let rest = url.dropFirst(5)
        let name = rest.prefix { $0 != "/" }
        let isEdge: (Character) -> Bool = { $0.isASCII && ($0.isLowercase || $0.isNumber) }
        guard (3...63).contains(name.count),
              name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "." || $0 == "-") }),
              let first = name.first, let last = name.last, isEdge(first), isEdge(last)
        else { return nil }
        bucket = String(name)
        var path = rest.dropFirst(name.count).drop { $0 == "/" }
        while path.hasSuffix("//") { path = path.dropLast() }
        guard path.utf8.count <= 512, !path.contains(where: { $0.isNewline || $0 == "\0" }) else { return nil }
        prefix = path.isEmpty || path.hasSuffix("/") ? String(path) : path + "/"
    }

    public var description: String { "s3://\(bucket)/\(prefix)" }
}

/// Why the object store did not do what was asked.
public enum S3Error: Error, Equatable, CustomStringConvertible {
    /// It could not be reached, or the connection broke.
    case unreachable(String)
    /// It answered with an error: the HTTP status and S3's own code (`AccessDenied`, `NoSuchBucket`).
    case refused(status: Int, code: String)

    public var description: String {
        switch self {
        case .unreachable(let reason): "the object store cannot be reached: \(reason)"
        case .refused(let status, let code): "the object store refused (\(status) \(code))"
        }
    }
}

/// The few S3 calls Moim makes — put, get, delete, list — signed with Signature V4, against
/// AWS (virtual-hosted addresses) or any S3-compatible store at `endpoint` (path-style
/// addresses: MinIO, Ceph, Garage, moto).
public struct S3Client: Sendable {
    public let location: S3Location
    private let signer: S3Signer
    private let client: HTTPClient
    private let pathStyle: Bool

    public init(location: S3Location, region: String, endpoint: HTTPEndpoint?, credentials: S3Credentials, timeout: Int = 10) {
        self.location = location
        signer = S3Signer(credentials: credentials, region: region)
        if let endpoint {
            client = HTTPClient(endpoint: endpoint, timeout: timeout)
            pathStyle = true
        } else {
            // A bucket with a dot in its name does not match the wildcard certificate.
            pathStyle = location.bucket.contains(".")
            let host = pathStyle ? "s3.\(region).amazonaws.com" : "\(location.bucket).s3.\(region).amazonaws.com"
            client = HTTPClient(endpoint: HTTPEndpoint(isSecure: true, host: host, port: 443), timeout: timeout)
        }
    }

    /// Stores `body` as `name` under the prefix, replacing any object of that name.
    public func put(_ name: String, body: [UInt8], contentType: String) throws(S3Error) {
        let answer = try send("PUT", key: location.prefix + name, headers: [("Content-Type", contentType)], body: body)
        guard answer.status == 200 else { throw Self.refusal(answer) }
    }

    /// The object `name`, or nil when there is none. `conditions` (`If-None-Match`,
    /// `If-Modified-Since`) are passed on: the answer may then be a 304 without a body.
    public func get(_ name: String, conditions: [(String, String)] = []) throws(S3Error) -> HTTPClientResponse? {
        let answer = try send("GET", key: location.prefix + name, headers: conditions)
        switch answer.status {
        case 200, 304: return answer
        case 404: return nil
        default: throw Self.refusal(answer)
        }
    }

    /// Deletes `name`; deleting what is not there is no error.
    public func delete(_ name: String) throws(S3Error) {
        let answer = try send("DELETE", key: location.prefix + name)
        guard answer.status == 204 || answer.status == 200 || answer.status == 404 else { throw Self.refusal(answer) }
    }

    /// The names of every object under the prefix (ListObjectsV2, `pageSize` a page).
    public func names(pageSize: Int = 1_000) throws(S3Error) -> [String] {
        var names: [String] = []
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("max-keys", String(pageSize)), ("prefix", location.prefix)]
            if let token { query.append(("continuation-token", token)) }
            let answer = try send("GET", key: nil, query: query)
            guard answer.status == 200 else { throw Self.refusal(answer) }
            let page = S3ListPage(xml: String(decoding: answer.body, as: UTF8.self))
            names += page.keys.compactMap { $0.hasPrefix(location.prefix) ? String($0.dropFirst(location.prefix.count)) : nil }
            token = page.isTruncated ? page.nextToken : nil
        } while token != nil
        return names
    }

    /// Lists at most one object: fails unless the bucket is there and the keys may read it.
    public func check() throws(S3Error) {
        let answer = try send("GET", key: nil, query: [("list-type", "2"), ("max-keys", "1"), ("prefix", location.prefix)])
        guard answer.status == 200 else { throw Self.refusal(answer) }
    }

    private func send(
        _ method: String, key: String?, query: [(String, String)] = [], headers: [(String, String)] = [], body: [UInt8] = []
    ) throws(S3Error) -> HTTPClientResponse {
        var path = pathStyle ? "/" + location.bucket : ""
        path += "/" + (key ?? "")
        let signed = signer.signedHeaders(
            method: method, host: client.endpoint.hostHeader, path: path, query: query,
            headers: headers, payload: body, date: Date())
        var target = S3Signer.encodedPath(path)
        if !query.isEmpty { target += "?" + S3Signer.canonicalQuery(query) }
        do {
            return try client.send(method, target, headers: headers + signed, body: body)
        } catch {
            throw .unreachable(error.description)
        }
    }

    private static func refusal(_ answer: HTTPClientResponse) -> S3Error {
        let xml = String(decoding: answer.body.prefix(4_096), as: UTF8.self)
        return .refused(status: answer.status, code: S3ListPage.values(of: "Code", in: xml).first ?? "")
    }
}

/// What a ListObjectsV2 page says: the keys, and whether and where it goes on.
struct S3ListPage {
    var keys: [String]
    var isTruncated: Bool
    var nextToken: String?

    init(xml: String) {
        keys = Self.values(of: "Key", in: xml)
        isTruncated = Self.values(of: "IsTruncated", in: xml).first == "true"
        nextToken = Self.values(of: "NextContinuationToken", in: xml).first
    }

    /// The text of every `<element>…</element>`, with XML's five entities and numeric
    /// references decoded.
    static func values(of element: String, in xml: String) -> [String] {
        let open = "<\(element)>", close = "</\(element)>"
        var values: [String] = []
        var rest = xml[...]
        while let start = rest.range(of: open), let end = rest[start.upperBound...].range(of: close) {
            values.append(unescaped(rest[start.upperBound..<end.lowerBound]))
            rest = rest[end.upperBound...]
        }
        return values
    }

    private static func unescaped(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var output = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            output += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semicolon) <= 10 else {
                output += rest[amp...]
                return output
            }
            let entity = rest[rest.index(after: amp)..<semicolon]
            switch entity {
            case "amp": output += "&"
            case "lt": output += "<"
            case "gt": output += ">"
            case "quot": output += "\""
            case "apos": output += "'"
            default:
                let number = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst(), radix: 10) : nil
                if let number, let scalar = Unicode.Scalar(number) {
                    output.unicodeScalars.append(scalar)
                } else {
                    output += rest[amp...semicolon]
                }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return output + rest
    }
}
