import Foundation
import HTTP
import TestSupport
@testable import Web

/// The whole site served on a random loopback port, and a member signed in to it: for
/// sending hostile requests over a real socket and checking the server is still up after.
final class LiveSite {
    let site: TestSite
    let server: HTTPServer
    let member: Browser

    init(configuration: HTTPServer.Configuration = LiveSite.serverConfiguration(), web: WebConfiguration = TestSite.configuration()) throws {
        site = try TestSite(configuration: web)
        member = site.browser()
        member.signUp(username: "hostile")
        server = HTTPServer(configuration: configuration, handler: site.app)
        try server.start()
    }

    deinit { server.stop() }

    static func serverConfiguration() -> HTTPServer.Configuration {
        var configuration = HTTPServer.Configuration()
        configuration.port = 0
        configuration.accessLog = false
        configuration.observer = RouteLog.Observer()
        return configuration
    }

    /// Sends one request on a new connection and returns the whole answer.
    func send(_ head: String, body: [UInt8] = []) throws -> String {
        let client = try LoopbackClient(port: server.port)
        client.send(head)
        client.send(bytes: body)
        return client.read()
    }

    func get(_ target: String, signedIn: Bool = false) throws -> String {
        try send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(signedIn ? cookieLine : "")Connection: close\r\n\r\n")
    }

    /// A url-encoded form from the signed-in member, with a valid CSRF token.
    func post(_ target: String, _ fields: [(String, String)]) throws -> String {
        let body = (fields + [("_csrf", member.csrfToken(on: "/"))])
            .map { PercentEncoding.encode($0.0) + "=" + PercentEncoding.encode($0.1) }.joined(separator: "&")
        return try send("POST \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(cookieLine)Content-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n", body: Array(body.utf8))
    }

    /// A `multipart/form-data` form with one file, from the signed-in member.
    func post(_ target: String, _ fields: [(String, String)], file: (field: String, name: String, bytes: [UInt8])) throws -> String {
        let request = multipart(target, fields, file: file)
        return try send(request.head, body: request.body)
    }

    /// The request `post(_:_:file:)` sends, to send as it is (from several threads at once).
    func multipart(_ target: String, _ fields: [(String, String)], file: (field: String, name: String, bytes: [UInt8])) -> (head: String, body: [UInt8]) {
        let boundary = "----MoimLiveBoundary"
        var body: [UInt8] = []
        for (name, value) in fields + [("_csrf", member.csrfToken(on: "/"))] {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.field)\"; filename=\"\(file.name)\"\r\n\r\n".utf8)
        body += file.bytes + Array("\r\n--\(boundary)--\r\n".utf8)
        return ("POST \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(cookieLine)Content-Type: multipart/form-data; boundary=\(boundary)\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n", body)
    }

    /// True if the server still answers a new connection.
    var isUp: Bool {
        ((try? get("/healthz")) ?? "").hasPrefix("HTTP/1.1 200")
    }

    private var cookieLine: String {
        "Cookie: " + member.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") + "\r\n"
    }
}

extension String {
    /// The status code of a raw HTTP response.
    var statusCode: Int? {
        split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
    }

    /// The value of a header in a raw HTTP response.
    func header(_ name: String) -> String? {
        for line in split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() { return parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }
}
