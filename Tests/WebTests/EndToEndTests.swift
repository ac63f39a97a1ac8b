import Foundation
import Testing
import HTTP
import TestSupport
@testable import Web

/// Serves `site` on a random loopback port for the duration of `body`.
private func withLiveServer(_ site: TestSite, _ body: (HTTPServer) throws -> Void) throws {
    var configuration = HTTPServer.Configuration()
    configuration.port = 0
    configuration.accessLog = false
    let server = HTTPServer(configuration: configuration, handler: site.app)
    try server.start()
    defer { server.stop() }
    try body(server)
}

/// The real server on a loopback socket, used the way a browser would.
@Suite(.serialized) struct EndToEndTests {
    @Test func aVisitorSignsUpOverARealSocket() throws {
        let site = try TestSite()
        try withLiveServer(site) { server in
            let client = try LoopbackClient(port: server.port)
            client.send("GET /signup HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: ko\r\n\r\n")
            let page = client.read { $0.contains("</html>") }
            #expect(page.hasPrefix("HTTP/1.1 200 OK"))
            #expect(page.contains("회원가입"))
            let token = try #require(page.firstMatch(of: /name="_csrf" value="([^"]+)"/)?.1)
            let cookie = try #require(page.firstMatch(of: /Set-Cookie: (moim_csrf=[^;]+)/)?.1)

            let body = "_csrf=\(token)&username=e2e_runner&email=e2e%40example.com&display_name=E2E"
                + "&password=correct+horse+battery&password_confirmation=correct+horse+battery" + Agreed.query
            client.send("POST /signup HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\nCookie: \(cookie)\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
            let created = client.read()
            #expect(created.hasPrefix("HTTP/1.1 303 See Other"))
            #expect(created.contains("Location: /\r\n"))
            #expect(created.contains("Set-Cookie: moim_session="))
            #expect(try site.database.accounts.user(username: "e2e_runner") != nil)
        }
    }
}

@Suite(.serialized) struct RefusalPageTests {
    @Test func anOversizedFormGetsTheSites413PageInItsLanguage() throws {
        let site = try TestSite()
        try withLiveServer(site) { server in
            let client = try LoopbackClient(port: server.port)
            client.send("POST /signup HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: ko\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000000\r\n\r\n")
            let response = client.read()
            #expect(response.hasPrefix("HTTP/1.1 413 Content Too Large"))
            #expect(response.contains("너무 커요"))
            #expect(response.contains("class=\"site-header\""))
            #expect(response.contains("Connection: close"))
        }
    }
}
