/// The request methods Moim's server understands; any other token is answered with 501.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    case get = "GET"
    case head = "HEAD"
    case post = "POST"
    case put = "PUT"
    case delete = "DELETE"
    case patch = "PATCH"
    case options = "OPTIONS"
}
