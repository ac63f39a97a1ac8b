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
        let nginx = Process()
        let data: String
        let tlsPort: Int
        let certificate: TestCertificate

        init() throws {
            data = NSTemporaryDirectory() + "moim-proxy-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: data + "/media", withIntermediateDirectories: true)
            var configuration = TestSite.configuration()
            configuration.mediaDirectory = data + "/media"
            site = try TestSite(configuration: configuration)
            var http = LiveSite.serverConfiguration()
            http.trustedProxies = TrustedProxies([AddressRange("127.0.0.1")!])
            server = HTTPServer(configuration: http, handler: site.app)
            try server.start()
            certificate = try TestCertificate.make()
            tlsPort = freeLoopbackPort()
            try startNginx()
        }

        deinit {
            // It may have inherited a mask that blocks SIGTERM; it holds nothing worth a clean stop.
            if nginx.isRunning { kill(nginx.processIdentifier, SIGKILL) }
            nginx.waitUntilExit()
            server.stop()
        }

        /// The shipped site config with this machine's ports, paths and certificate.
        private func startNginx() throws {
            var site = try String(contentsOfFile: TestSite.root + "/deploy/nginx/moim.conf", encoding: .utf8)
            let replacements = [
                ("server 127.0.0.1:8080;", "server 127.0.0.1:\(server.port);"),
                ("    listen 80;\n", "    listen 127.0.0.1:\(freeLoopbackPort());\n"),
                ("    listen [::]:80;\n", ""),
                ("    listen 443 ssl http2;\n", "    listen 127.0.0.1:\(tlsPort) ssl http2;\n"),
                ("    listen [::]:443 ssl http2;\n", ""),
                ("/etc/letsencrypt/live/run.example.org/fullchain.pem", certificate.certificate),
                ("/etc/letsencrypt/live/run.example.org/privkey.pem", certificate.key),
                ("/opt/moim/Public", TestSite.root + "/Public"),
                ("root /var/lib/moim;", "root \(data);"),
            ]
            for (from, to) in replacements {
                guard site.contains(from) else { throw CocoaError(.fileReadCorruptFile) }
                site = site.replacingOccurrences(of: from, with: to)
            }
            let main = """
                daemon off;
                master_process off;
                pid \(data)/nginx.pid;
                error_log \(data)/nginx-error.log;
                events {}
                http {
                    include /etc/nginx/mime.types;
                    access_log off;
                    client_body_temp_path \(data)/body;
                    proxy_temp_path \(data)/proxy;
                    fastcgi_temp_path \(data)/fastcgi;
                    uwsgi_temp_path \(data)/uwsgi;
                    scgi_temp_path \(data)/scgi;
                    proxy_bind 127.0.0.1;
                \(site)
                }
                """
            try main.write(toFile: data + "/nginx.conf", atomically: true, encoding: .utf8)
            nginx.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
            nginx.arguments = ["-p", data, "-c", data + "/nginx.conf"]
            nginx.standardError = FileHandle.nullDevice
            try nginx.run()
            for _ in 0..<100 where (try? curl(["/healthz"]))?.status != 200 { Thread.sleep(forTimeInterval: 0.05) }
        }

        /// curl from `from` to nginx over HTTPS: the status, the headers and the body.
        func curl(_ arguments: [String], from: String = "127.0.0.2") throws -> (status: Int, headers: String, body: String, version: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            let headers = data + "/headers-\(UUID().uuidString)"
            var all = ["-s", "--http2", "--cacert", certificate.certificate, "--interface", from, "-D", headers,
                       "-w", "\n%{http_code} %{http_version}", "--max-time", "10"]
            let path = arguments[0]
            all += arguments.dropFirst() + ["https://localhost:\(tlsPort)\(path)"]
            process.arguments = all
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: try pipe.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
            process.waitUntilExit()
            let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
            let last = lines.last?.split(separator: " ") ?? []
            let head = (try? String(contentsOfFile: headers, encoding: .utf8)) ?? ""
            return (Int(last.first ?? "") ?? 0, head, lines.dropLast().joined(separator: "\n"), String(last.last ?? ""))
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
        FileManager.default.createFile(atPath: big, contents: Data(count: 31 << 20))
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
