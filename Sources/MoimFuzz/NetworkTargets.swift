import Foundation
@testable import Network

enum NetworkTargets {
    /// What an object store answers, and the settings that name one: a response is refused or
    /// read within its bytes (a body by Content-Length is exactly that long), a listing's
    /// keys are no more than its `<Key>` elements, and a store's address or bucket that is
    /// accepted can never break a request line or header.
    static func objectStoreAnswer(_ bytes: UnsafeBufferPointer<UInt8>) {
        let input = Array(bytes)
        for method in ["GET", "HEAD"] {
            guard let answer = try? HTTPClientResponse(parsing: input, toA: method) else { continue }
            guard (0...999).contains(answer.status), answer.body.count <= input.count else { violated("a response larger than its bytes") }
            if method == "HEAD", !answer.body.isEmpty { violated("a body in the answer to HEAD") }
            if method == "GET", answer.header("transfer-encoding") == nil, let length = answer.header("content-length"),
               ![204, 304].contains(answer.status), !(100..<200).contains(answer.status), answer.body.count != Int(length) {
                violated("a body of another length than Content-Length")
            }
        }

        let text = String(decoding: input, as: UTF8.self)
        let page = S3ListPage(xml: text)
        guard page.keys.count <= text.components(separatedBy: "<Key>").count - 1 else { violated("more keys than <Key> elements") }

        let unsafe: (Character) -> Bool = { $0.isNewline || $0 == " " || $0 == "\0" || $0 == "/" || $0 == "@" }
        if let endpoint = HTTPEndpoint(text), endpoint.hostHeader.contains(where: unsafe) || !(1...65_535).contains(endpoint.port) {
            violated("an endpoint that breaks the Host header")
        }
        if let location = S3Location(url: text) {
            guard !location.bucket.contains(where: unsafe), !location.prefix.contains(where: \.isNewline),
                  location.prefix.isEmpty || location.prefix.hasSuffix("/")
            else { violated("a bucket or prefix that breaks a request") }
            // Every key it makes signs and encodes without trapping.
            let path = "/" + location.bucket + "/" + location.prefix + "x.jpg"
            guard !S3Signer.encodedPath(path).contains(where: { $0.isNewline || $0 == " " }) else { violated("an encoded path with a space") }
        }
    }
}
