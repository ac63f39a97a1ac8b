import Formats
import Foundation
import HTTP
import Prometheus
import Storage
import Synchronization

/// `GET /metrics` in Prometheus's text format (swift-prometheus), for loopback or a bearer
/// token (`--metrics-token`): requests by route and status with latency histograms, open
/// connections, the handler queue, SQLite time on readers and the writer, the outbox, the
/// notices not yet considered for mail, and the process's memory.
public final class Metrics: RequestObserver, Sendable {
    private let registry = PrometheusCollectorRegistry()
    /// The server whose connections and queue are reported; set once it exists.
    private let server = Mutex<(@Sendable () -> HTTPServer.Stats)?>(nil)
    /// Database totals already added to the counters, so that each scrape adds what is new.
    private let reported = Mutex<(readSeconds: Double, reads: UInt64, writeSeconds: Double, writes: UInt64)>((0, 0, 0, 0))
    private let reportedReplicaReads = Mutex<(answered: UInt64, failed: UInt64)>((0, 0))
    private static let buckets: [Duration] = [.milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
                                              .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
                                              .seconds(1), .seconds(2), .seconds(5)]

    public init() {}

    /// The series, with the help text Prometheus shows (made when used: the type is not Sendable).
    private enum Series {
        static func named(_ subsystem: String, _ name: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "moim", subsystem: subsystem, metricName: name, unitName: unit, helpText: help)
        }
        static var requests: MetricNameDescriptor { named("http", "requests", "total", "Requests answered, by method, route pattern and status.") }
        static var duration: MetricNameDescriptor { named("http", "request_duration", "seconds", "From the handler queue to the answer, by route pattern.") }
        static var connections: MetricNameDescriptor { named("http", "open_connections", "", "Connections open now.") }
        static var maxConnections: MetricNameDescriptor { named("http", "max_connections", "", "The cap on connections (503 past it).") }
        static var queued: MetricNameDescriptor { named("http", "queued_requests", "", "Requests waiting for a handler thread.") }
        static var databaseSeconds: MetricNameDescriptor { named("database", "seconds", "total", "Time in SQLite, on readers and on the writer.") }
        static var databaseOperations: MetricNameDescriptor { named("database", "operations", "total", "Statements and reads run in SQLite.") }
        static var outbox: MetricNameDescriptor { named("mail", "outbox", "messages", "Mail in the outbox by state (sent and failed: the last 30 days).") }
        static var backlog: MetricNameDescriptor { named("mail", "notice_backlog", "", "Notifications not yet considered for immediate mail.") }
        static var replicaReads: MetricNameDescriptor { named("database", "replica_reads", "total", "Reads answered by read replicas, and failed there (read again on the primary).") }
        static var replicas: MetricNameDescriptor { named("database", "replicas", "", "Read replicas configured, and taking reads now (up, within the lag bound).") }
        static var resident: MetricNameDescriptor { named("process", "resident_memory", "bytes", "Resident memory (VmRSS).") }
        static var peak: MetricNameDescriptor { named("process", "peak_resident_memory", "bytes", "Peak resident memory (VmHWM).") }
    }

    public func attach(_ server: HTTPServer) {
        self.server.withLock { $0 = { server.stats() } }
    }

    public func observe(_ request: HTTPRequest, _ response: HTTPResponse, seconds: Double) {
        // Unmatched paths (static files, 404s) share one label, so that scanners cannot
        // create a series per path.
        let method = switch request.method {
        case .get, .head: "GET"
        case .post: "POST"
        default: "other"
        }
        let key = RequestSeries(method: method, route: response.route ?? "other", status: response.status.code)
        let series = recorders.withLock { $0[key] } ?? makeRecorders(key)
        series.requests.increment()
        guard seconds.isFinite, seconds >= 0 else { return }
        series.duration.recordNanoseconds(Int64(min(seconds, 3_600) * 1e9))
    }

    /// One request series: what its answers are counted and timed in.
    private struct RequestSeries: Hashable {
        let method: String
        let route: String
        let status: Int
    }

    /// The registry's counter and histogram of each series, looked up once: asking the registry
    /// validates the names and joins the labels on every call, a seventh of answering /healthz.
    private let recorders = Mutex<[RequestSeries: (requests: Counter, duration: DurationHistogram)]>([:])

    private func makeRecorders(_ key: RequestSeries) -> (requests: Counter, duration: DurationHistogram) {
        let made = (
            requests: registry.makeCounter(descriptor: Series.requests, labels: [("method", key.method), ("route", key.route), ("status", String(key.status))]),
            duration: registry.makeDurationHistogram(descriptor: Series.duration, labels: [("route", key.route)], buckets: Self.buckets)
        )
        recorders.withLock { $0[key] = made }
        return made
    }

    /// The page: what is counted as it happens, plus what is read now.
    func render(database: AppDatabase) throws -> [UInt8] {
        if let stats = server.withLock({ $0 })?() {
            registry.makeGauge(descriptor: Series.connections).set(Double(stats.openConnections))
            registry.makeGauge(descriptor: Series.maxConnections).set(Double(stats.maxConnections))
            registry.makeGauge(descriptor: Series.queued).set(Double(stats.queuedRequests))
        }
        let reads = database.timings.reads, writes = database.timings.writes
        let added = reported.withLock { last in
            defer { last = (reads.seconds, reads.count, writes.seconds, writes.count) }
            return (reads.seconds - last.readSeconds, reads.count - last.reads, writes.seconds - last.writeSeconds, writes.count - last.writes)
        }
        registry.makeCounter(descriptor: Series.databaseSeconds, labels: [("connection", "read")]).increment(by: max(0, added.0))
        registry.makeCounter(descriptor: Series.databaseOperations, labels: [("connection", "read")]).increment(by: Int64(clamping: added.1))
        registry.makeCounter(descriptor: Series.databaseSeconds, labels: [("connection", "write")]).increment(by: max(0, added.2))
        registry.makeCounter(descriptor: Series.databaseOperations, labels: [("connection", "write")]).increment(by: Int64(clamping: added.3))
        if let replicas = database.replicaStatus {
            let added = reportedReplicaReads.withLock { last in
                defer { last = (replicas.reads, replicas.failures) }
                return (replicas.reads &- last.answered, replicas.failures &- last.failed)
            }
            registry.makeCounter(descriptor: Series.replicaReads, labels: [("result", "answered")]).increment(by: Int64(clamping: added.0))
            registry.makeCounter(descriptor: Series.replicaReads, labels: [("result", "failed")]).increment(by: Int64(clamping: added.1))
            registry.makeGauge(descriptor: Series.replicas, labels: [("state", "configured")]).set(Double(replicas.configured))
            registry.makeGauge(descriptor: Series.replicas, labels: [("state", "taking_reads")]).set(Double(replicas.fresh))
        }
        let outbox = try database.mail.outboxCounts()
        for (state, count) in [("queued", outbox.queued), ("sent", outbox.sent), ("failed", outbox.failed)] {
            registry.makeGauge(descriptor: Series.outbox, labels: [("state", state)]).set(Double(count))
        }
        registry.makeGauge(descriptor: Series.backlog).set(Double(try database.mail.noticeBacklog()))
        let memory = Self.memory()
        registry.makeGauge(descriptor: Series.resident).set(Double(memory.resident))
        registry.makeGauge(descriptor: Series.peak).set(Double(memory.peak))
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return bytes
    }

    /// VmRSS and VmHWM from /proc/self/status, in bytes.
    static func memory() -> (resident: Int, peak: Int) {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
        func kilobytes(_ field: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return 0 }
            let number = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return number.multipliedReportingOverflow(by: 1_024).overflow ? 0 : number * 1_024
        }
        return (kilobytes("VmRSS"), kilobytes("VmHWM"))
    }
}

extension App {
    /// `GET /metrics`: to loopback (the client as resolved through trusted proxies) or with
    /// `Authorization: Bearer` and the configured token; anyone else gets the site's 404.
    func metricsPage(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let metrics = configuration.metrics else { throw HTTPError(.notFound) }
        let loopback = AddressRange("127.0.0.0/8")?.contains(request.remoteAddress) == true || request.remoteAddress == "::1"
        let bearer = request.headers["authorization"].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        let tokenMatches = configuration.metricsToken.map { token in bearer.map { Crypto.constantTimeEqual($0, token) } ?? false } ?? false
        guard loopback || tokenMatches else { throw HTTPError(.notFound) }
        var response = HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", "text/plain; version=0.0.4; charset=utf-8")]),
                                    body: try metrics.render(database: database))
        response.headers.set("Cache-Control", "no-store")
        return response
    }
}
