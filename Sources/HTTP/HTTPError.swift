/// An error that maps to an HTTP status; thrown by handlers, rendered by the application.
public struct HTTPError: Error, Sendable, Equatable {
    public let status: HTTPStatus
    /// A message safe to show to the user, if the default text for the status is not enough.
    public let message: String?
    /// Extra headers the error response must carry, such as `Allow` or `Retry-After`.
    public let headers: [String: String]

    public init(_ status: HTTPStatus, message: String? = nil, headers: [String: String] = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }
}
