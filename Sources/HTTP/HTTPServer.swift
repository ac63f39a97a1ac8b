import CEpoll
import Foundation
import Glibc
import Synchronization

public enum HTTPServerError: Error, CustomStringConvertible {
    case system(String, Int32)
    case address(String)
    /// A supervised child whose supervisor died before it started.
    case supervisorGone

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .address(let host): "cannot listen on \(host)"
        case .supervisorGone: "the supervising process is gone"
        }
    }
}

/// The HTTP/1.1 server: a listening socket, a few epoll loops and a pool of handler threads.
///
/// `start()` binds and returns; `stop()` stops accepting, lets requests in flight finish
/// (up to `shutdownGrace` seconds) and returns when every thread has ended.
public final class HTTPServer: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var host = "127.0.0.1"
        /// 0 asks the kernel for a free port; read the chosen one from `port` after `start()`.
        public var port = 8080
        public var eventLoops = 2
        public var handlerThreads = 8
        /// Handlers run at once (more only while those running seem blocked, `HandlerPool`);
        /// nil: one per processor this process may use.
        public var runningHandlers: Int?
        /// How long running handlers may go without one finishing or starting before they
        /// seem blocked and the next request runs beside them.
        public var handlerPatience: Duration = .milliseconds(2)
        public var maxConnections = 4096
        public var limits = HTTPRequestParser.Limits()
        /// Seconds to receive a request head (and the longest pause inside a body).
        public var headerTimeout = 20
        /// Seconds a kept-alive connection may wait for its next request.
        public var idleTimeout = 15
        /// Seconds a response may wait on a client that does not read.
        public var writeTimeout = 30
        /// Bytes per second a body must average once `headerTimeout` has passed.
        public var minimumBodyRate = 1024
        /// Seconds from a request's first byte to its last: a body that keeps up the rate but
        /// never ends is cut off here (408).
        public var bodyTimeout = 300
        /// Bytes of request input all connections together may hold beyond the first
        /// `HTTPConnection.freeInput` each; a body that would need more gets 503.
        public var bodyMemory = 128 * 1024 * 1024
        /// Seconds to let in-flight requests finish when stopping.
        public var shutdownGrace = 10
        /// Write one line per request to standard output.
        public var accessLog = true
        /// Proxies whose `X-Forwarded-For` / `X-Forwarded-Proto` are believed.
        public var trustedProxies = TrustedProxies()
        /// Told of every answered request (metrics).
        public var observer: (any RequestObserver)?
        /// A listening socket to serve instead of binding `host` and `port`: one a
        /// supervising process holds across restarts of this one.
        public var listener: Int32?
        /// Told which request each handler thread runs, and asked which not to run.
        public var witness: (any RequestWitness)?

        public init() {}
    }

    public let configuration: Configuration
    let handler: any HTTPHandler
    private(set) var pool: HandlerPool!
    private var loops: [EventLoop] = []
    private var listener: Int32 = -1
    private let stopRequested = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    private let lastAccepts = DispatchGroup()
    private let openConnections = Atomic<Int>(0)
    private let reservedInput = Atomic<Int>(0)
    /// `configuration.maxConnections`, lowered if the descriptor limit is too low for it.
    public private(set) var maxConnections = 0
    private let requestCounter = Atomic<Int>(0)
    private let requestPrefix = String(UInt32.random(in: 0x1000...0xFFFF), radix: 16)
    private let loopsEnded = DispatchGroup()
    /// The port actually bound.
    public private(set) var port = 0

    public init(configuration: Configuration, handler: any HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
    }

    public func start() throws {
        signal(SIGPIPE, SIG_IGN)
        Self.keepFreedMemory()
        maxConnections = Self.connectionCap(configuration.maxConnections)
        listener = try configuration.listener ?? Self.listen(host: configuration.host, port: configuration.port)
        port = Self.boundPort(listener)
        pool = HandlerPool(handler: handler, threads: configuration.handlerThreads,
                           running: configuration.runningHandlers ?? HandlerPool.processors(), patience: configuration.handlerPatience,
                           accessLog: configuration.accessLog, witness: configuration.witness, observer: configuration.observer)
        for index in 0..<max(1, configuration.eventLoops) {
            let loop = try EventLoop(index: index, listener: listener, server: self)
            loops.append(loop)
            loopsEnded.enter()
            let thread = Thread { [self] in
                loop.run()
                loopsEnded.leave()
            }
            thread.name = "moim-loop-\(index)"
            thread.start()
        }
    }

    /// Stops gracefully; safe to call from any thread, once.
    ///
    /// The listening socket may be shared with the server taking over (a hand-over), so no
    /// client in its queue may be lost: this process first stops being woken for it, then
    /// each loop accepts what is already queued (a wake-up it took may have been the only one
    /// for a connection), and only then is the socket closed here.
    public func stop() {
        guard !stopRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Closing our descriptor does not take the socket out of epoll while another process
        // (a supervisor, the server taking over) still holds it: remove it explicitly.
        for loop in loops {
            var event = epoll_event()
            epoll_ctl(loop.epoll, EPOLL_CTL_DEL, listener, &event)
        }
        loops.forEach { _ in lastAccepts.enter() }
        stopping.store(true, ordering: .releasing)
        loops.forEach { $0.wake() }
        lastAccepts.wait()
        close(listener)
        loopsEnded.wait()
        pool.stop()
        loops = []
    }

    /// glibc gives freed memory back to the kernel as soon as 128 KiB lie free at the top of a
    /// heap, and serves blocks over its (moving) mmap threshold from fresh mappings: the pages
    /// built per request then cost page faults and `madvise` calls, a tenth of the signed-in
    /// feed's time under load (`perf`). Fixed thresholds keep what handler threads free for
    /// their next request; the peak stays what the busiest moment needed.
    static func keepFreedMemory() {
        mallopt(M_TRIM_THRESHOLD, 64 << 20)
        mallopt(M_MMAP_THRESHOLD, 16 << 20)
    }

    /// A loop has accepted the last connections queued when the stop began.
    func tookLastConnections() {
        lastAccepts.leave()
    }

    /// What the server holds right now, for metrics.
    public struct Stats: Sendable {
        public let openConnections: Int
        public let queuedRequests: Int
        public let maxConnections: Int
    }

    public func stats() -> Stats {
        Stats(openConnections: openConnections.load(ordering: .relaxed), queuedRequests: pool?.queued ?? 0, maxConnections: maxConnections)
    }

    /// Blocks until `stop()` has finished.
    public func wait() {
        loopsEnded.wait()
    }

    var isStopping: Bool { stopping.load(ordering: .relaxed) }

    func openConnection() -> Bool {
        let count = openConnections.wrappingAdd(1, ordering: .relaxed).newValue
        if count > maxConnections {
            openConnections.wrappingSubtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    func closeConnection() {
        openConnections.wrappingSubtract(1, ordering: .relaxed)
    }

    /// Takes `bytes` from the input budget; false if that would pass `bodyMemory`.
    func reserveInput(_ bytes: Int) -> Bool {
        let total = reservedInput.wrappingAdd(bytes, ordering: .relaxed).newValue
        if total > configuration.bodyMemory {
            reservedInput.wrappingSubtract(bytes, ordering: .relaxed)
            return false
        }
        return true
    }

    func releaseInput(_ bytes: Int) {
        reservedInput.wrappingSubtract(bytes, ordering: .relaxed)
    }

    func nextRequestID() -> String {
        let number = requestCounter.wrappingAdd(1, ordering: .relaxed).newValue
        return requestPrefix + "-" + String(number, radix: 16)
    }

    // MARK: - Sockets

    /// Descriptors kept for the listener, epoll, eventfds, the database, logs and files
    /// being served or uploaded.
    static let reservedDescriptors = 128

    /// Raises the soft descriptor limit to the hard one (systemd's default soft limit is
    /// 1,024), then returns `wanted` or fewer, so that a full house of connections never runs
    /// the process out of descriptors.
    static func connectionCap(_ wanted: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return wanted }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        let available = UInt64(limit.rlim_cur)  // RLIM_INFINITY is UInt64.max
        let usable = available > UInt64(reservedDescriptors) ? Int(clamping: available - UInt64(reservedDescriptors)) : 1
        return max(1, min(wanted, usable))
    }

    /// A non-blocking listening socket on `host:port` (port 0: any free port).
    public static func listen(host: String, port: Int) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else {
            throw HTTPServerError.address("\(host):\(port)")
        }
        defer { freeaddrinfo(result) }
        let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HTTPServerError.system("socket", errno) }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            let code = errno
            close(fd)
            throw HTTPServerError.system("bind \(host):\(port)", code)
        }
        guard Glibc.listen(fd, 1024) == 0 else {
            let code = errno
            close(fd)
            throw HTTPServerError.system("listen", code)
        }
        return fd
    }

    /// The port a listening socket is bound to.
    public static func boundPort(_ fd: Int32) -> Int {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }
}
