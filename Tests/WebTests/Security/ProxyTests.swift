import Foundation
import HTTP
import Testing
import TestSupport
@testable import Web

/// Moim behind nginx (Debian's), run from `deploy/nginx/moim.conf` itself on loopback with a
/// self-signed certificate, and clients on distinct loopback addresses (127.0.0.2, .3).
@Suite(.serialized) struct ProxyTests {
    /// The site on a random port, trusting 127.0.0.1 (where nginx connects from).
    final class Proxied {
        let site: TestSite
        let server: HTTPServer
        let nginx: NginxProxy
        var data: String { nginx.data }

        init() throws {
            let data = NSTemporaryDirectory() + "moim-proxy-\(UUID().uuidString)"
            var configuration = TestSite.configuration()
            configuration.mediaDirectory = data + "/media"
            site = try TestSite(configuration: configuration)
            var http = LiveSite.serverConfiguration()
            http.trustedProxies = TrustedProxies([AddressRange("127.0.0.1")!])
            server = HTTPServer(configuration: http, handler: site.app)
            try server.start()
            nginx = try NginxProxy(upstreams: [server.port], data: data)
        }

        deinit { server.stop() }

        func curl(_ arguments: [String], from: String = "127.0.0.2") throws -> (status: Int, headers: String, body: String, version: String) {
            try nginx.curl(arguments, from: from)
        }
    }

    @Test func pagesComeOverHTTP2WithSecureCookiesAndStaticFilesFromNginx() throws {
        let proxied = try Proxied()
        let login = try proxied.curl(["/login"])
        #expect(login.status == 200 && login.version == "2")
        #expect(login.headers.lowercased().contains("set-cookie: moim_csrf=") && login.headers.contains("; Secure"))
        let css = try proxied.curl(["/css/moim.css"])
        #expect(css.status == 200 && css.headers.lowercased().contains("cache-control: public, max-age=3600"))
        #expect(css.headers.lowercased().contains("x-content-type-options: nosniff"))
        // An image, served by nginx from the data folder with Moim's headers; a name Moim
        // never makes is not served at all.
        try Data([0xFF, 0xD8, 0xFF]).write(to: URL(fileURLWithPath: proxied.data + "/media/AAAAAAAAAAAAAAAAAAAAAA.jpg"))
        let image = try proxied.curl(["/media/AAAAAAAAAAAAAAAAAAAAAA.jpg"])
        #expect(image.status == 200 && image.headers.lowercased().contains("content-security-policy: default-src 'none'; sandbox"))
        #expect(try proxied.curl(["/media/..%2Fnginx.conf"]).status == 404)
        #expect(try proxied.curl(["/metrics"]).status == 404)
        // Bodies past Moim's largest are refused before they reach it.
        let big = proxied.data + "/big"
        #expect(FileManager.default.createFile(atPath: big, contents: Data(count: 31 << 20)))
        #expect(try proxied.curl(["/posts", "--data-binary", "@" + big, "-H", "Content-Type: application/octet-stream"]).status == 413)
    }

    @Test func eachClientBehindTheProxyHasItsOwnLoginLimitAndCannotForgeAnother() throws {
        let proxied = try Proxied()
        let jar = proxied.data + "/jar-a"
        let form = try proxied.curl(["/login", "-c", jar])
        let token = try #require(form.body.firstMatch(of: /name="_csrf" value="([^"]+)"/)?.1)
        // Client A (127.0.0.2) fails 20 logins, claiming each time to be someone else.
        for attempt in 0..<20 {
            let answer = try proxied.curl(["/login", "-b", jar, "-H", "X-Forwarded-For: 198.51.100.\(attempt)",
                                           "--data", "_csrf=\(token)&login=nobody\(attempt)&password=wrong+password"])
            #expect(answer.status == 422)
        }
        let blocked = try proxied.curl(["/login", "-b", jar, "--data", "_csrf=\(token)&login=nobody&password=wrong+password"])
        #expect(blocked.status == 429)
        // Client B (127.0.0.3) is a different person.
        let other = proxied.data + "/jar-b"
        let otherForm = try proxied.curl(["/login", "-c", other], from: "127.0.0.3")
        let otherToken = try #require(otherForm.body.firstMatch(of: /name="_csrf" value="([^"]+)"/)?.1)
        let answer = try proxied.curl(["/login", "-b", other, "--data", "_csrf=\(otherToken)&login=nobody&password=wrong+password"], from: "127.0.0.3")
        #expect(answer.status == 422)
    }
}
