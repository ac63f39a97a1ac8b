import Foundation
import TestSupport

/// Debian's nginx run from `deploy/nginx/moim.conf` itself on loopback, in front of the Moim
/// servers at `upstreams`, with a self-signed certificate; clients are curl processes on
/// distinct loopback addresses (127.0.0.2, .3). Its access log names the server that answered
/// each request (`upstreams()`).
final class NginxProxy: @unchecked Sendable {  // immutable once started
    let data: String
    let tlsPort: Int
    let certificate: TestCertificate
    private let nginx = Process()

    init(upstreams: [Int], data: String) throws {
        self.data = data
        try FileManager.default.createDirectory(atPath: data + "/media", withIntermediateDirectories: true)
        certificate = try TestCertificate.make()
        tlsPort = freeLoopbackPort()
        var site = try String(contentsOfFile: TestSite.root + "/deploy/nginx/moim.conf", encoding: .utf8)
        let servers = upstreams.map { "server 127.0.0.1:\($0) max_fails=1 fail_timeout=5s;" }.joined(separator: "\n    ")
        let replacements = [
            ("server 127.0.0.1:8080;", servers),
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
                log_format upstreams '$upstream_addr $request';
                access_log \(data)/nginx-access.log upstreams;
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
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, (try? curl(["/healthz"], maxTime: 1))?.status != 200 { Thread.sleep(forTimeInterval: 0.05) }
    }

    deinit {
        // It may have inherited a mask that blocks SIGTERM; it holds nothing worth a clean stop.
        if nginx.isRunning { kill(nginx.processIdentifier, SIGKILL) }
        nginx.waitUntilExit()
    }

    /// curl from `from` to nginx over HTTPS: the status, the headers and the body.
    func curl(_ arguments: [String], from: String = "127.0.0.2", maxTime: Int = 10) throws -> (status: Int, headers: String, body: String, version: String) {
        let headers = data + "/headers-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: headers) }
        let all = ["-s", "--http2", "--cacert", certificate.certificate, "--interface", from, "-D", headers,
                   "-w", "\n%{http_code} %{http_version}", "--max-time", String(maxTime)]
            + arguments.dropFirst() + ["https://localhost:\(tlsPort)\(arguments[0])"]
        let output = try runTool("/usr/bin/curl", all, timeout: TimeInterval(maxTime + 20)).output
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        let last = lines.last?.split(separator: " ") ?? []
        let head = (try? String(contentsOfFile: headers, encoding: .utf8)) ?? ""
        return (Int(last.first ?? "") ?? 0, head, lines.dropLast().joined(separator: "\n"), String(last.last ?? ""))
    }

    /// The ports of the servers that answered each proxied request so far, in order ("-" for
    /// what nginx served itself).
    func upstreams() -> [String] {
        let log = (try? String(contentsOfFile: data + "/nginx-access.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map { line in
            let address = line.split(separator: " ").first.map(String.init) ?? "-"
            return address.split(separator: ":").last.map(String.init) ?? address
        }
    }
}
