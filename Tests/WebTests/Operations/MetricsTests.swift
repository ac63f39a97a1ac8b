import Foundation
import HTTP
import Testing
import TestSupport
@testable import Web

/// `GET /metrics` from a real server: what it counts, and who may read it.
@Suite struct MetricsTests {
    @Test func requestsAreCountedByRouteAndStatusAndOnlyLoopbackOrTheTokenMayRead() throws {
        var configuration = TestSite.configuration()
        let metrics = Metrics()
        configuration.metrics = metrics
        configuration.metricsToken = "a-long-metrics-secret"
        let site = try TestSite(configuration: configuration)
        var http = LiveSite.serverConfiguration()
        http.observer = metrics
        let server = HTTPServer(configuration: http, handler: site.app)
        try server.start()
        defer { server.stop() }
        metrics.attach(server)
        func get(_ target: String, _ headers: String = "") throws -> String {
            let client = try LoopbackClient(port: server.port)
            client.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)Connection: close\r\n\r\n")
            return client.read()
        }
        for _ in 0..<3 { _ = try get("/login") }
        _ = try get("/posts/999")
        _ = try get("/no/such/path/\(UUID().uuidString)")
        let page = try get("/metrics")
        #expect(page.hasPrefix("HTTP/1.1 200"))
        #expect(page.contains(#"moim_http_requests_total{method="GET",route="/login",status="200"} 3"#))
        #expect(page.contains(#"moim_http_requests_total{method="GET",route="/posts/:id",status="404"} 1"#))
        // Paths no route knows share one label: a scanner cannot make a series per path.
        #expect(page.contains(#"route="other",status="404"} 1"#) && !page.contains("no/such/path"))
        #expect(page.contains(#"moim_http_request_duration_seconds_count{route="/login"} 3"#))
        for name in ["moim_http_open_connections", "moim_http_queued_requests", "moim_database_seconds_total{connection=\"read\"}",
                     "moim_mail_outbox_messages{state=\"queued\"} 0", "moim_mail_notice_backlog 0", "moim_process_resident_memory_bytes"] {
            #expect(page.contains(name), "\(name)")
        }

        // Anyone else: the site's 404, unless they hold the token.
        let outsider = site.browser(address: "203.0.113.9")
        #expect(outsider.get("/metrics").status == .notFound)
        #expect(outsider.get("/metrics", headers: [("Authorization", "Bearer wrong")]).status == .notFound)
        #expect(outsider.get("/metrics", headers: [("Authorization", "Bearer a-long-metrics-secret")]).status == .ok)
    }
}
