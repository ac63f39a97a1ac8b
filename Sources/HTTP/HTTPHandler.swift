/// Anything that answers requests. The server calls `handle` on its handler threads.
public protocol HTTPHandler: Sendable {
    func handle(_ request: HTTPRequest) -> HTTPResponse

    /// The answer to a request the server refused before any handler could see it (413, 431,
    /// 400 …). `request` holds whatever was parsed of it: at least a method and target. The
    /// connection closes after it. By default a plain-text line.
    func refusal(_ error: HTTPError, for request: HTTPRequest) -> HTTPResponse

    /// Whether the request with this head (no body yet) may send a `multipart/form-data`
    /// body up to the upload limit rather than the ordinary one. Called on an event loop
    /// before the body is read, so it must be quick. By default no request may.
    func allowsUpload(_ head: HTTPRequest) -> Bool

    /// The answer, if the event loop may give it itself: for requests that need no database,
    /// disk, lock or time (a health check), which a trip to a handler thread and back would
    /// cost more than answering. Called on an event loop for every request, so it must be
    /// quick and never block. By default nil: every request goes to a handler thread.
    func immediateResponse(to request: HTTPRequest) -> HTTPResponse?
}

extension HTTPHandler {
    public func allowsUpload(_ head: HTTPRequest) -> Bool { false }

    public func immediateResponse(to request: HTTPRequest) -> HTTPResponse? { nil }

    public func refusal(_ error: HTTPError, for request: HTTPRequest) -> HTTPResponse {
        .text("\(error.status)\n" + (error.message.map { "\($0)\n" } ?? ""), status: error.status)
    }
}

/// Told of each request as its answer is handed to the event loop, on the handler thread; must not block.
public protocol RequestObserver: Sendable {
    /// `seconds`: from the request reaching the handler pool to its answer being handed back.
    func observe(_ request: HTTPRequest, _ response: HTTPResponse, seconds: Double)
}
