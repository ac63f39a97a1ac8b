/// A response to write: status, headers and the whole body.
///
/// The server adds `Date`, `Content-Length` and `Connection`; handlers set everything else.
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The route pattern that answered (`/posts/:id`), for metrics; nil for the fallback.
    public var route: String?
    /// For a stream: called with it once its head is on its way (see `HTTPStream`).
    public var opened: (@Sendable (HTTPStream) -> Void)?

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: HTTPStatus = .ok, contentType: String, body: String) {
        self.init(status: status, headers: HTTPHeaders([("Content-Type", contentType)]), body: Array(body.utf8))
    }

    public static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: text)
    }

    public static func html(_ html: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/html; charset=utf-8", body: html)
    }

    /// A 303 See Other, the answer to a successful form POST.
    public static func redirect(to location: String, status: HTTPStatus = .seeOther) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("Location", location)]))
    }

    /// A response that stays open: `headers` now, then whatever is sent to the stream that
    /// `opened` is given. It has no length; the connection closes when it ends.
    public static func stream(headers: HTTPHeaders, opened: @escaping @Sendable (HTTPStream) -> Void) -> HTTPResponse {
        var response = HTTPResponse(status: .ok, headers: headers)
        response.opened = opened
        return response
    }

    /// The response's body as text, for tests and logs.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// Whether a response with this status may carry a body (RFC 9110 §6.4.1).
    var allowsBody: Bool {
        !(100..<200).contains(status.code) && status.code != 204 && status.code != 304
    }
}
