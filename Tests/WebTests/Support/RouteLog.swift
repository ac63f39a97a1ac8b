import Foundation
import HTTP
import Synchronization

/// The routes the tests of this process requested, in process (`Browser`) or over a socket
/// (`LiveSite`), written at exit to the file `MOIM_ROUTE_LOG` names (one `METHOD pattern` a
/// line), for `RouteCoverageTests`.
enum RouteLog {
    struct Observer: RequestObserver {
        func observe(_ request: HTTPRequest, _ response: HTTPResponse, seconds: Double) { RouteLog.note(request.method, response.route) }
    }

    private static let requested = Mutex<Set<String>?>(nil)

    static func note(_ method: HTTPMethod, _ route: String?) {
        guard let route, let file = ProcessInfo.processInfo.environment["MOIM_ROUTE_LOG"] else { return }
        let method = method == .head ? HTTPMethod.get : method
        requested.withLock { requested in
            if requested == nil {
                requested = []
                logFile = file
                atexit { RouteLog.write() }
            }
            requested?.insert("\(method.rawValue) \(route)")
        }
    }

    nonisolated(unsafe) private static var logFile: String?

    private static func write() {
        guard let file = logFile else { return }
        let lines = requested.withLock { ($0 ?? []).sorted() }
        _ = FileManager.default.createFile(atPath: file, contents: Data(lines.map { $0 + "\n" }.joined().utf8))
    }
}
