import COpenSSL
import Foundation

/// Access keys for an S3-compatible store: `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and,
/// for temporary ones, `AWS_SESSION_TOKEN`.
public struct S3Credentials: Sendable, Equatable {
    public var accessKeyID: String
    public var secretAccessKey: String
    public var sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// From the environment, as the AWS tools read them; nil when either key is missing.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> S3Credentials? {
        guard let id = environment["AWS_ACCESS_KEY_ID"], !id.isEmpty,
              let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty
        else { return nil }
        let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        return S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: token)
    }
}

/// AWS Signature Version 4 for S3, in the `Authorization` header, with the payload's SHA-256
/// signed too (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html).
public struct S3Signer: Sendable {
    public var credentials: S3Credentials
    public var region: String
    public var service = "s3"

    public init(credentials: S3Credentials, region: String) {
        self.credentials = credentials
        self.region = region
    }

    /// The headers to send beside `headers` (which go into the signature too): `x-amz-date`,
    /// `x-amz-content-sha256`, `x-amz-security-token` when there is one, and `Authorization`.
    /// `path` is the URI path before encoding; `query` the parameters before encoding.
    public func signedHeaders(
        method: String, host: String, path: String, query: [(String, String)] = [],
        headers: [(String, String)] = [], payload: [UInt8], date: Date
    ) -> [(String, String)] {
        let stamp = Self.timestamp(date)
        let day = String(stamp.prefix(8))
        let payloadHash = Self.hex(Self.sha256(payload))
        var added = [("x-amz-content-sha256", payloadHash), ("x-amz-date", stamp)]
        if let token = credentials.sessionToken { added.append(("x-amz-security-token", token)) }

        var canonical: [(String, String)] = (headers + added + [("host", host)]).map { name, value in
            (name.lowercased(), value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " "))
        }
        canonical.sort { $0.0 < $1.0 }
        let signedNames = canonical.map(\.0).joined(separator: ";")
        let request = [
            method,
            Self.encodedPath(path),
            Self.canonicalQuery(query),
            canonical.map { "\($0.0):\($0.1)\n" }.joined(),
            signedNames,
            payloadHash,
        ].joined(separator: "\n")
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let toSign = "AWS4-HMAC-SHA256\n\(stamp)\n\(scope)\n\(Self.hex(Self.sha256(Array(request.utf8))))"

        var key = Self.hmac(Array(("AWS4" + credentials.secretAccessKey).utf8), day)
        for part in [region, service, "aws4_request"] { key = Self.hmac(key, part) }
        let signature = Self.hex(Self.hmac(key, toSign))
        let authorization = "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signedNames), Signature=\(signature)"
        return added + [("Authorization", authorization)]
    }

    /// Each segment of a path percent-encoded as S3 wants it (once, `/` kept).
    public static func encodedPath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { encoded(String($0)) }.joined(separator: "/")
    }

    /// Parameters sorted by name, then value, each side encoded.
    public static func canonicalQuery(_ query: [(String, String)]) -> String {
        let pairs: [(name: String, value: String)] = query.map { (encoded($0.0), encoded($0.1)) }
        let sorted = pairs.sorted { left, right in
            left.name == right.name ? left.value < right.value : left.name < right.name
        }
        return sorted.map { $0.name + "=" + $0.value }.joined(separator: "&")
    }

    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~".utf8)

    /// RFC 3986 percent-encoding of everything but the unreserved characters, in uppercase hex.
    public static func encoded(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            if unreserved.contains(byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output += String(format: "%%%02X", byte)
            }
        }
        return output
    }

    /// `20261125T091500Z`
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d%02d%02dT%02d%02d%02dZ", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1,
            parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_Digest(bytes, bytes.count, &digest, &length, EVP_sha256(), nil)
        return Array(digest.prefix(Int(length)))
    }

    static func hmac(_ key: [UInt8], _ text: String) -> [UInt8] {
        let message = Array(text.utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        HMAC(EVP_sha256(), key, Int32(clamping: key.count), message, message.count, &digest, &length)
        return Array(digest.prefix(Int(length)))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
