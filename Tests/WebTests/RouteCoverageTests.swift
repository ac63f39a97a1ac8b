import Foundation
import HTTP
import Testing
@testable import Web

/// Every route in `Routes.swift` is requested by at least one test. `script/test` runs the
/// suite on each engine with `MOIM_ROUTE_LOG` set, so that each request a test makes (through a
/// `Browser` or to a `LiveSite`) is written down, then runs this test on both logs
/// (`MOIM_ROUTE_LOG_CHECK`, separated by `:`).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MOIM_ROUTE_LOG_CHECK"] != nil, "reads the log of a whole run (script/test)"))
struct RouteCoverageTests {
    @Test func everyRouteIsRequestedByATest() throws {
        // Given the route table and the routes the suite requested
        let site = try TestSite()
        let table = site.app.router.table.map { "\($0.method.rawValue) \($0.pattern)" }
        let logs = (ProcessInfo.processInfo.environment["MOIM_ROUTE_LOG_CHECK"] ?? "").split(separator: ":")
        let requested = Set(try logs.flatMap { try String(contentsOfFile: String($0), encoding: .utf8).split(separator: "\n").map(String.init) })
        // Then no route went unrequested
        #expect(table.count > 100)
        let missing = table.filter { !requested.contains($0) }
        #expect(missing.isEmpty, "routes no test requests:\n\(missing.joined(separator: "\n"))")
    }
}
