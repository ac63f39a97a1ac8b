/// Anything that answers requests. The server calls `handle` on its handler threads.
public protocol HTTPHandler: Sendable {
    func handle(_ request: HTTPRequest) -> HTTPResponse
}
