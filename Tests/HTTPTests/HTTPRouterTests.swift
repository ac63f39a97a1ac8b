import Foundation
import Testing
import HTTP

@Suite struct HTTPRouterTests {
    private var router: HTTPRouter {
        var router = HTTPRouter()
        router.get("/u/:username") { .text("user \($0.parameters["username"]!)") }
        router.get("/meetups/:id.ics") { .text("calendar \($0.parameters["id"]!)") }
        router.get("/meetups/:id") { .text("meetup \($0.parameters["id"]!)") }
        router.post("/meetups/:id") { _ in .text("posted") }
        return router
    }

    @Test func matchesParametersAndSuffixes() {
        #expect(router.handle(HTTPRequest(method: .get, target: "/u/%EB%AF%BC%EC%95%84")).bodyText == "user 민아")
        #expect(router.handle(HTTPRequest(method: .get, target: "/meetups/7.ics")).bodyText == "calendar 7")
        #expect(router.handle(HTTPRequest(method: .get, target: "/meetups/7?x=1")).bodyText == "meetup 7")
    }

    @Test func servesHeadWithTheGetRoute() {
        #expect(router.handle(HTTPRequest(method: .head, target: "/u/a")).status == .ok)
    }

    @Test func answersAnotherMethodWith405AndAllow() {
        let response = router.handle(HTTPRequest(method: .delete, target: "/meetups/7"))
        #expect(response.status == .methodNotAllowed)
    }

    @Test func answersUnknownPathsWith404() {
        #expect(router.handle(HTTPRequest(method: .get, target: "/nowhere")).status == .notFound)
        #expect(router.handle(HTTPRequest(method: .get, target: "/u/%ZZ")).status == .badRequest)
    }
}

@Suite struct StaticFilesTests {
    private let root: String
    private let files: StaticFiles

    init() throws {
        root = NSTemporaryDirectory() + "moim-static-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/css", withIntermediateDirectories: true)
        try "body{}".write(toFile: root + "/css/site.css", atomically: true, encoding: .utf8)
        try "secret".write(toFile: root + "/../moim-secret-\(UUID().uuidString)", atomically: true, encoding: .utf8)
        try "hidden".write(toFile: root + "/.env", atomically: true, encoding: .utf8)
        files = StaticFiles(root: root)
    }

    @Test func servesFilesWithTypeAndValidators() throws {
        let response = try #require(files.response(for: HTTPRequest(method: .get, target: "/css/site.css")))
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "text/css; charset=utf-8")
        #expect(response.bodyText == "body{}")
        let etag = try #require(response.headers["ETag"])
        var again = HTTPRequest(method: .get, target: "/css/site.css")
        again.headers.add("if-none-match", etag)
        #expect(files.response(for: again)?.status == .notModified)
    }

    @Test(arguments: ["/../etc/passwd", "/css/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/css%2F..%2F..%2Fetc", "/.env", "/css", "/"])
    func neverLeavesTheRoot(_ target: String) {
        #expect(files.response(for: HTTPRequest(method: .get, target: target)) == nil)
    }
}
