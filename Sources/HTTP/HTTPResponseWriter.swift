/// Serialises a response head; the body is written after it in the same `writev`.
enum HTTPResponseWriter {
    static func head(for response: HTTPResponse, version: HTTPVersion, keepAlive: Bool, isHead: Bool, streaming: Bool = false) -> [UInt8] {
        var head: [UInt8] = []
        head.reserveCapacity(1024)
        head.append(text: version == .http1_0 ? "HTTP/1.0 " : "HTTP/1.1 ")
        head.append(text: String(response.status.code))
        head.append(text: " ")
        head.append(text: response.status.reason)
        head.append(text: "\r\nDate: ")
        head.append(text: HTTPDate.now)
        head.append(text: "\r\n")
        for (name, value) in response.headers where !isManaged(name) {
            head.append(text: name)
            head.append(text: ": ")
            head.append(text: value)
            head.append(text: "\r\n")
        }
        if (response.allowsBody || isHead) && !streaming {
            head.append(text: "Content-Length: ")
            head.append(text: String(response.body.count))
            head.append(text: "\r\n")
        }
        if !keepAlive {
            head.append(text: "Connection: close\r\n")
        } else if version == .http1_0 {
            head.append(text: "Connection: keep-alive\r\n")
        }
        head.append(text: "\r\n")
        return head
    }

    private static func isManaged(_ name: String) -> Bool {
        HTTPHeaders.sameName(name, "content-length") || HTTPHeaders.sameName(name, "connection")
            || HTTPHeaders.sameName(name, "date") || HTTPHeaders.sameName(name, "transfer-encoding")
    }

    /// A plain-text response the server writes by itself, when even the handler's refusal
    /// page would cost too much (too many connections).
    static func plain(_ status: HTTPStatus, message: String?) -> (head: [UInt8], body: [UInt8]) {
        var response = HTTPResponse.text("\(status)\n" + (message.map { "\($0)\n" } ?? ""), status: status)
        response.headers.add("Cache-Control", "no-store")
        let head = head(for: response, version: .http1_1, keepAlive: false, isHead: false)
        return (head, response.body)
    }
}

extension [UInt8] {
    fileprivate mutating func append(text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }
}
