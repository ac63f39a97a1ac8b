import CEpoll
import Foundation
import Glibc

/// A fixed set of threads that run handlers, fed by the event loops.
///
/// Handlers are synchronous and may block (a write waiting for SQLite's lock, a PostgreSQL
/// round trip), so the pool has more threads than processors; the event loops never run them,
/// so a slow handler delays only its own request. Each worker batches its access-log lines and
/// writes them when it runs out of work.
///
/// Jobs run one per processor (the `running` limit), in the order they came. Left alone, the
/// kernel would slice a processor's time between every busy thread, and a page caught mid-way
/// would wait for the others' slices (under load the p99 was ten times the p50). So a thread
/// that finishes a job takes the next itself, and another is woken only for a processor with
/// nothing to run. While jobs wait, one idle thread stands by: when no running job has started
/// or finished for `patience` (2 ms: long for any ordinary page, short against a person's
/// wait), they are taken to be blocked, and it runs the next job beside them. A thread with
/// more jobs to run wakes the event loops for its answers every `handOver` rather than after
/// each, so that a loop writes a batch of them and reads the next requests in one round.
/// Against a wake per job, this took the switches between threads from one per signed-in
/// feed page to one per five, and the p99 at 256 connections from 1.5× its p50 to 1.2×.
///
/// A job that waits for another process's answer (PostgreSQL's, `HandlerPool.waiting`) gives
/// its processor up meanwhile, so that with the database on a processor of its own this one
/// runs the next page instead of idling through every round trip.
public final class HandlerPool: @unchecked Sendable {
    struct Job {
        let loop: EventLoop
        let connection: UInt64
        let request: HTTPRequest
        let receivedAt: Int
        /// When it was handed to the pool, in nanoseconds of the monotonic clock.
        var submittedAt = DispatchTime.now().uptimeNanoseconds
    }

    /// A few pages' time: short against a page's wait in the queue under load.
    static let handOver: UInt64 = 500_000  // nanoseconds

    /// What a worker thread holds between jobs.
    private struct Worker {
        /// Access-log lines not yet written.
        var log: [UInt8] = []
        /// Loops given answers and not woken for them yet, and since when.
        var unwoken: [EventLoop] = []
        var unwokenSince: UInt64 = 0

        mutating func answered(on loop: EventLoop, now: UInt64) {
            if unwoken.isEmpty { unwokenSince = now }
            if !unwoken.contains(where: { $0 === loop }) { unwoken.append(loop) }
        }

        mutating func wakeLoops() {
            for loop in unwoken { loop.wake() }
            unwoken.removeAll(keepingCapacity: true)
        }
    }

    private let handler: any HTTPHandler
    private let accessLog: Bool
    private let witness: (any RequestWitness)?
    private let observer: (any RequestObserver)?
    private let limit: Int
    private let patience: UInt64  // nanoseconds
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var head = 0
    /// Threads running a job.
    private var running = 0
    /// Threads waiting on `condition`, and those of them signalled and not yet awake.
    private var idle = 0
    private var called = 0
    /// Whether an idle thread is waiting for the running jobs' patience to run out.
    private var standingBy = false
    /// When a job last started or finished, in nanoseconds of the monotonic clock.
    private var lastProgress: UInt64 = 0
    private var stopping = false
    private var threads: [Thread] = []
    private let finished = DispatchGroup()

    init(handler: any HTTPHandler, threads count: Int, running limit: Int, patience: Duration, accessLog: Bool,
         witness: (any RequestWitness)?, observer: (any RequestObserver)? = nil) {
        self.handler = handler
        self.accessLog = accessLog
        self.witness = witness
        self.observer = observer
        self.limit = max(1, limit)
        let (seconds, attoseconds) = patience.components
        self.patience = UInt64(clamping: seconds) &* 1_000_000_000 &+ UInt64(clamping: attoseconds / 1_000_000_000)
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
        wakeIfNeeded()
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

    /// Wakes an idle thread while jobs wait: to run one on a processor that has none, or to
    /// stand by when nobody does. Called with the lock held.
    private func wakeIfNeeded() {
        guard head < jobs.count, idle > called else { return }
        if running + called < limit || (!standingBy && called == 0) {
            called += 1
            condition.signal()
        }
    }

    /// The next job for this thread, after the one it `finished` (if any); nil once the pool
    /// stops and the queue is empty. Before the thread sleeps, it wakes the loops it answered
    /// for and writes its log.
    private func nextJob(finished: Bool, _ worker: inout Worker) -> Job? {
        condition.lock()
        defer { condition.unlock() }
        if finished {
            running -= 1
            lastProgress = DispatchTime.now().uptimeNanoseconds
        }
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let mayRun = head < jobs.count && (running < limit || now >= lastProgress.saturatingAdd(patience))
            if !worker.unwoken.isEmpty && (!mayRun || now - worker.unwokenSince >= Self.handOver) {
                condition.unlock()
                worker.wakeLoops()
                condition.lock()
            } else if mayRun {
                running += 1
                lastProgress = now
                let job = takeJob()
                wakeIfNeeded()
                return job
            } else if head < jobs.count {
                if standingBy {
                    sleep()
                } else {
                    standingBy = true
                    sleep(until: lastProgress.saturatingAdd(patience))
                    standingBy = false
                }
            } else if !worker.log.isEmpty {
                condition.unlock()
                Self.write(&worker.log)
                condition.lock()
            } else if stopping {
                // Others may be asleep behind a job that is done now.
                condition.broadcast()
                return nil
            } else {
                sleep()
            }
        }
    }

    private func takeJob() -> Job {
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

    /// Waits on the condition (until `deadline`, in nanoseconds of the monotonic clock).
    private func sleep(until deadline: UInt64? = nil) {
        idle += 1
        if let deadline {
            let now = DispatchTime.now().uptimeNanoseconds
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(deadline > now ? deadline - now : 0) / 1e9))
        } else {
            condition.wait()
        }
        idle -= 1
        if called > 0 { called -= 1 }
    }

    /// Runs `body`, which waits for another process (a database's answer, not a lock of
    /// this one), as not running: a waiting job may take this thread's processor meanwhile, and
    /// when `body` returns this one runs beside it until one of them finishes. Outside a
    /// handler thread it just runs `body`.
    public static func waiting<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        guard let pointer = pthread_getspecific(worker) else { return try body() }
        let pool = Unmanaged<HandlerPool>.fromOpaque(pointer).takeUnretainedValue()
        pool.condition.lock()
        pool.running -= 1
        pool.lastProgress = DispatchTime.now().uptimeNanoseconds
        pool.wakeIfNeeded()
        pool.condition.unlock()
        defer {
            pool.condition.lock()
            pool.running += 1
            pool.lastProgress = DispatchTime.now().uptimeNanoseconds
            pool.condition.unlock()
        }
        return try body()
    }

    /// The pool of the handler thread running (unretained: the pool outlives its threads).
    private static let worker: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    private func run(slot: Int) {
        pthread_setspecific(Self.worker, Unmanaged.passUnretained(self).toOpaque())
        var worker = Worker()
        var finished = false
        while let job = nextJob(finished: finished, &worker) {
            finished = true
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
            } else if job.loop.enqueue(.response(job.connection, head: head, body: response.body, keepAlive: keepAlive, stream: nil)) {
                worker.answered(on: job.loop, now: DispatchTime.now().uptimeNanoseconds)
            }
            if accessLog {
                worker.log.append(contentsOf: Self.logLine(request, response, bodySize: bodySize, milliseconds: monotonicMilliseconds() - job.receivedAt).utf8)
                if worker.log.count > 16 * 1024 { Self.write(&worker.log) }
            }
        }
        worker.wakeLoops()
        Self.write(&worker.log)
    }

    /// The processors this process may run on (`taskset`, a container's CPU set).
    static func processors() -> Int {
        let allowed = Int(moim_allowed_processors())
        return allowed > 0 ? allowed : max(1, ProcessInfo.processInfo.activeProcessorCount)
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

private extension UInt64 {
    func saturatingAdd(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
