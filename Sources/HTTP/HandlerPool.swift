import Foundation
import Glibc

/// A fixed set of threads that run handlers, fed by the event loops.
///
/// Handlers are synchronous and may block briefly (a SQLite write); the event loops never run
/// them, so a slow handler delays only its own request. Each worker batches its access-log
/// lines and writes them when it runs out of work.
final class HandlerPool: @unchecked Sendable {
    struct Job {
        let loop: EventLoop
        let connection: UInt64
        let request: HTTPRequest
        let receivedAt: Int
        /// When it was handed to the pool, in nanoseconds of the monotonic clock.
        var submittedAt = DispatchTime.now().uptimeNanoseconds
    }

    private let handler: any HTTPHandler
    private let accessLog: Bool
    private let witness: (any RequestWitness)?
    private let observer: (any RequestObserver)?
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var head = 0
    private var stopping = false
    private var threads: [Thread] = []
    private let finished = DispatchGroup()
    private let permits: RunPermits

    init(handler: any HTTPHandler, threads count: Int, accessLog: Bool, witness: (any RequestWitness)?, observer: (any RequestObserver)? = nil) {
        self.handler = handler
        self.accessLog = accessLog
        self.witness = witness
        self.observer = observer
        permits = RunPermits(count: RunPermits.processors())
        for index in 0..<count {
            finished.enter()
            let thread = Thread { [self] in
                run(slot: index)
                finished.leave()
            }
            thread.name = "moim-handler-\(index)"
            thread.stackSize = 1 << 20
            threads.append(thread)
        }
        threads.forEach { $0.start() }
    }

    func submit(_ job: Job) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Requests waiting for a free handler thread.
    var queued: Int {
        condition.lock()
        defer { condition.unlock() }
        return jobs.count - head
    }

    /// Lets the workers finish the queue, then ends them.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
        finished.wait()
    }

    private func nextJob(flushing log: inout [UInt8]) -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count {
            if !log.isEmpty {
                condition.unlock()
                Self.write(&log)
                condition.lock()
                continue
            }
            if stopping { return nil }
            condition.wait()
        }
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024 {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }

    private func run(slot: Int) {
        var log: [UInt8] = []
        while let job = nextJob(flushing: &log) {
            let permitted = permits.acquire(waitingAtMost: RunPermits.patience)
            defer { if permitted { permits.release() } }
            var response: HTTPResponse
            if let witness {
                if witness.isQuarantined(job.request) {
                    response = handler.refusal(HTTPError(.serviceUnavailable, headers: ["Retry-After": "600"]), for: job.request)
                } else {
                    witness.begin(slot: slot, job.request)
                    response = handler.handle(job.request)
                    witness.end(slot: slot)
                }
            } else {
                response = handler.handle(job.request)
            }
            let request = job.request
            let keepAlive = Self.keepsAlive(request, response, loop: job.loop)
            let isHead = request.method == .head
            let opened = isHead ? nil : response.opened
            let head = HTTPResponseWriter.head(for: response, version: request.version, keepAlive: keepAlive && opened == nil,
                                               isHead: isHead, streaming: opened != nil)
            let bodySize = response.body.count
            if isHead || !response.allowsBody { response.body = [] }
            // Before the answer leaves, so that a client's next request sees this one counted.
            if let observer {
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - job.submittedAt) / 1e9
                observer.observe(request, response, seconds: seconds)
            }
            if let opened {
                let stream = HTTPStream(loop: job.loop, connection: job.connection)
                job.loop.deliver(.response(job.connection, head: head, body: response.body, keepAlive: false, stream: stream))
                opened(stream)
            } else {
                job.loop.deliver(.response(job.connection, head: head, body: response.body, keepAlive: keepAlive, stream: nil))
            }
            if accessLog {
                log.append(contentsOf: Self.logLine(request, response, bodySize: bodySize, milliseconds: monotonicMilliseconds() - job.receivedAt).utf8)
                if log.count > 16 * 1024 { Self.write(&log) }
            }
        }
        Self.write(&log)
    }

    /// Whether the connection stays open after this answer.
    static func keepsAlive(_ request: HTTPRequest, _ response: HTTPResponse, loop: EventLoop) -> Bool {
        request.keepAlive && loop.acceptsMoreRequests && response.headers["connection"]?.lowercased() != "close"
    }

    /// The access log's line for an answered request.
    static func logLine(_ request: HTTPRequest, _ response: HTTPResponse, bodySize: Int? = nil, milliseconds: Int) -> String {
        "\(request.id) \(request.remoteAddress) \(request.method.rawValue) \(request.target) "
            + "\(response.status.code) \(bodySize ?? response.body.count) \(milliseconds)ms\n"
    }

    /// Writes access-log lines to standard output and empties them.
    static func write(_ log: inout [UInt8]) {
        guard !log.isEmpty else { return }
        log.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
        log.removeAll(keepingCapacity: true)
    }
}
