import Foundation
import HTTP
import Testing
@testable import Web

/// Every route in `Routes.swift` is requested by at least one test: a whole `swift test` run
/// ends with that check (`RouteLog`); these tests show the check sees what it must.
struct RouteCoverageTests {
    @Test func theCheckNamesARouteNoTestRequested() throws {
        // Given the site's table, with every route requested but one
        let site = try TestSite()
        let table = site.app.router.table.map { "\($0.method.rawValue) \($0.pattern)" }
        #expect(table.count > 100)
        let requested = Set(table.filter { $0 != "POST /posts/:id/like" })
        // Then that route, and only it, is missing
        #expect(RouteLog.missing(table, requested: requested) == ["POST /posts/:id/like"])
        #expect(RouteLog.missing(table, requested: Set(table)).isEmpty)
    }

    @Test func onlyAWholeRunIsChecked() {
        #expect(RouteLog.isWholeRun(["MoimPackageTests.xctest", "--testing-library", "swift-testing"]))
        #expect(!RouteLog.isWholeRun(["MoimPackageTests.xctest", "--filter", "FeedTests"]))
        #expect(!RouteLog.isWholeRun(["MoimPackageTests.xctest", "--skip", "Live"]))
        #expect(!RouteLog.isWholeRun(["MoimPackageTests.xctest", "--filter=FeedTests"]))
    }

    @Test func aHeadRequestCountsForItsGetRoute() {
        RouteLog.note(.head, "/coverage-test/:id")
        #expect(RouteLog.wasRequested("GET /coverage-test/:id"))
        #expect(!RouteLog.wasRequested("HEAD /coverage-test/:id"))
    }
}
