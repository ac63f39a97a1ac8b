/// Serialises a response head; the body is written after it in the same `writev`.
enum HTTPResponseWriter {
    static func head(for response: HTTPResponse, version: HTTPVersion, keepAlive: Bool, isHead: Bool, streaming: Bool = false) -> [UInt8] {
        var text = "\(version == .http1_0 ? "HTTP/1.0" : "HTTP/1.1") \(response.status.code) \(response.status.reason)\r\n"
        text += "Date: \(HTTPDate.now)\r\n"
        for (name, value) in response.headers where !isManaged(name) {
            text += "\(name): \(value)\r\n"
        }
        if (response.allowsBody || isHead) && !streaming {
            text += "Content-Length: \(response.body.count)\r\n"
        }
        if !keepAlive {
            text += "Connection: close\r\n"
        } else if version == .http1_0 {
            text += "Connection: keep-alive\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }

    private static func isManaged(_ name: String) -> Bool {
        switch name.lowercased() {
        case "content-length", "connection", "date", "transfer-encoding": true
        default: false
        }
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
