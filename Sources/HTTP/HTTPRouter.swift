/// Matches a request's method and path against a table of routes.
///
/// Patterns are literal segments and `:name` parameters, optionally with a literal suffix
/// (`/meetups/:id.ics`). `HEAD` is served by the `GET` route. A path that matches with another
/// method throws 405 with `Allow`; an unmatched path goes to the fallback.
public struct HTTPRouter: HTTPHandler {
    public typealias Handler = @Sendable (HTTPRequest) throws -> HTTPResponse
    public typealias ErrorHandler = @Sendable (HTTPRequest, any Error) -> HTTPResponse

    private struct Route: Sendable {
        let method: HTTPMethod
        let pattern: String
        let segments: [Segment]
        let handler: Handler
        var takesFiles = false
    }

    private enum Segment: Sendable {
        case literal(String)
        case parameter(name: String, suffix: String)
    }

    private var routes: [Route] = []
    /// `GET` routes answered on the event loop, by their (literal) path.
    private var immediate: [String: Route] = [:]
    /// Answers requests no route matched, e.g. static files; throws 404 by default.
    public var fallback: Handler = { _ in throw HTTPError(.notFound) }
    /// Turns an error thrown by a handler into a response (an error page).
    public var errorHandler: ErrorHandler = { _, error in
        let status = (error as? HTTPError)?.status ?? .internalServerError
        return .text(status.description, status: status)
    }

    public init() {}

    public mutating func get(_ pattern: String, _ handler: @escaping Handler) { add(.get, pattern, handler) }
    public mutating func post(_ pattern: String, _ handler: @escaping Handler) { add(.post, pattern, handler) }

    /// A POST route whose form may carry files, up to the server's upload limit.
    public mutating func upload(_ pattern: String, _ handler: @escaping Handler) {
        add(.post, pattern, handler)
        routes[routes.count - 1].takesFiles = true
    }

    /// A `GET` route on a literal path whose handler needs no database, disk, lock or time, so
    /// that the event loop answers it itself (`immediateResponse(to:)`); also an ordinary route.
    public mutating func immediate(_ pattern: String, _ handler: @escaping Handler) {
        precondition(!pattern.contains(":"), "an immediate route has a literal path")
        add(.get, pattern, handler)
        immediate[pattern] = routes[routes.count - 1]
    }

    public func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        guard !immediate.isEmpty, request.method == .get || request.method == .head, let route = immediate[request.path] else { return nil }
        return run(route, request)
    }

    /// True if `head` is a POST to a route registered with `upload`.
    public func takesFiles(_ head: HTTPRequest) -> Bool {
        guard head.method == .post else { return false }
        let path = head.path.split(separator: "/", omittingEmptySubsequences: true)
        return routes.contains { $0.takesFiles && $0.method == .post && ((try? match($0.segments, path)) ?? nil) != nil }
    }

    /// Every route's method and pattern, in the order they were added.
    public var table: [(method: HTTPMethod, pattern: String)] { routes.map { ($0.method, $0.pattern) } }

    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        let segments = pattern.split(separator: "/").map { part -> Segment in
            guard part.hasPrefix(":") else { return .literal(String(part)) }
            let name = part.dropFirst()
            if let dot = name.firstIndex(of: ".") {
                return .parameter(name: String(name[..<dot]), suffix: String(name[dot...]))
            }
            return .parameter(name: String(name), suffix: "")
        }
        routes.append(Route(method: method, pattern: pattern, segments: segments, handler: handler))
    }

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        do {
            return try route(request)
        } catch {
            return errorHandler(request, error)
        }
    }

    private func route(_ request: HTTPRequest) throws -> HTTPResponse {
        let path = request.path.split(separator: "/", omittingEmptySubsequences: true)
        var allowed: [HTTPMethod] = []
        let wanted = request.method == .head ? HTTPMethod.get : request.method
        for route in routes {
            guard let parameters = try match(route.segments, path) else { continue }
            guard route.method == wanted else {
                allowed.append(route.method)
                continue
            }
            var matched = request
            matched.parameters = parameters
            return run(route, matched)
        }
        if !allowed.isEmpty {
            if allowed.contains(.get) { allowed.append(.head) }
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            throw HTTPError(.methodNotAllowed, headers: ["Allow": allow])
        }
        return try fallback(request)
    }

    /// The route's answer, or the error page for what it threw, marked with its pattern.
    private func run(_ route: Route, _ request: HTTPRequest) -> HTTPResponse {
        var response: HTTPResponse
        do {
            response = try route.handler(request)
        } catch {
            response = errorHandler(request, error)
        }
        response.route = route.pattern
        return response
    }

    private func match(_ segments: [Segment], _ path: [Substring]) throws(HTTPError) -> [String: String]? {
        guard segments.count == path.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, path) {
            switch segment {
            case .literal(let literal):
                guard part == literal else { return nil }
            case .parameter(let name, let suffix):
                guard part.hasSuffix(suffix), part.count > suffix.count else { return nil }
                parameters[name] = try PercentDecoding.decode(Array(part.dropLast(suffix.count).utf8))
            }
        }
        return parameters
    }
}
