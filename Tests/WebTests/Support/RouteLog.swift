import Foundation
import HTTP
import Synchronization

/// The routes the tests of this process requested, in process (`Browser`) or over a socket
/// (`LiveSite`). A whole run (`swift test` with no `--filter` or `--skip`) ends by checking that
/// every route of the site's table was requested by some test: a route none requests fails the
/// run, naming the route. A filtered run cannot know, and checks nothing.
enum RouteLog {
    struct Observer: RequestObserver {
        func observe(_ request: HTTPRequest, _ response: HTTPResponse, seconds: Double) { RouteLog.note(request.method, response.route) }
    }

    private struct Log {
        var table: [String] = []
        var requested: Set<String> = []
    }

    private static let log = Mutex(Log())

    /// The site's routes, as `METHOD pattern`; the first site a run makes registers the check.
    static func expect(_ router: HTTPRouter) {
        log.withLock { log in
            guard log.table.isEmpty else { return }
            log.table = router.table.map { "\($0.method.rawValue) \($0.pattern)" }
            atexit { RouteLog.checkAtExit() }
        }
    }

    static func note(_ method: HTTPMethod, _ route: String?) {
        guard let route else { return }
        let method = method == .head ? HTTPMethod.get : method
        _ = log.withLock { $0.requested.insert("\(method.rawValue) \(route)") }
    }

    static func wasRequested(_ route: String) -> Bool {
        log.withLock { $0.requested.contains(route) }
    }

    /// The routes of `table` not in `requested`, in the table's order.
    static func missing(_ table: [String], requested: Set<String>) -> [String] {
        table.filter { !requested.contains($0) }
    }

    /// Whether this process runs every test, so that the routes it requested are the suite's.
    static func isWholeRun(_ arguments: [String]) -> Bool {
        !arguments.contains { $0 == "--filter" || $0 == "--skip" || $0.hasPrefix("--filter=") || $0.hasPrefix("--skip=") }
    }

    private static func checkAtExit() {
        guard isWholeRun(CommandLine.arguments) else { return }
        let unrequested = log.withLock { missing($0.table, requested: $0.requested) }
        guard !unrequested.isEmpty else { return }
        FileHandle.standardError.write(Data("✘ Routes no test requests (Tests/WebTests/Support/RouteLog.swift):\n\(unrequested.joined(separator: "\n"))\n".utf8))
        _exit(1)
    }
}
