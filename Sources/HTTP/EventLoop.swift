import CEpoll
import Foundation
import Glibc
import Synchronization

/// One thread running epoll over its share of connections: accepts, reads, parses, hands
/// complete requests to the handler pool and writes responses back in order.
///
/// Sockets are edge-triggered. A connection has at most one request at a handler at a time,
/// so pipelined requests are answered in the order they came, and a client that pipelines
/// faster than it is served is held back by TCP rather than by our memory.
final class EventLoop: @unchecked Sendable {
    static let listenerKey: UInt64 = 0
    /// Milliseconds accepting stops for when the system is out of descriptors or buffers.
    static let acceptPause = 100
    /// Milliseconds a connection accepted before a stop has to send its first request.
    static let firstRequestGrace = 1000
    private static let wakeKey: UInt64 = 1

    let index: Int
    let epoll: Int32
    let wakeFD: Int32
    let listener: Int32
    unowned let server: HTTPServer
    var connections: [UInt64: HTTPConnection] = [:]
    var nextID: UInt64
    /// One read buffer for the whole loop; bytes are copied into each connection's parser.
    var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    var lastSweep = 0
    var stopDeadline: Int?
    /// A descriptor held in reserve, freed to accept and refuse a client when out of them.
    var spareFD: Int32
    var acceptsPausedUntil: Int?
    var tookLastConnections = false
    /// Lines for the requests this loop answered itself, written after each round of events.
    var accessLog: [UInt8] = []

    /// What handler threads and streams hand to the loop to write.
    enum Delivery {
        /// A response; with a stream, its head, and the connection stays open for the stream.
        case response(UInt64, head: [UInt8], body: [UInt8], keepAlive: Bool, stream: HTTPStream?)
        /// More for an open stream.
        case streamData(UInt64, [UInt8])
        /// A stream is over: close once what it sent is written.
        case streamEnd(UInt64)
    }
    let outbox = Mutex<[Delivery]>([])

    init(index: Int, listener: Int32, server: HTTPServer) throws {
        self.index = index
        self.listener = listener
        self.server = server
        self.nextID = UInt64(index) << 48 + 2
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard epoll >= 0, wakeFD >= 0 else { throw HTTPServerError.system("epoll/eventfd", errno) }
        // EPOLLEXCLUSIVE wakes one loop per new connection instead of all of them.
        try register(listener, key: Self.listenerKey, events: EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue, add: true)
        try register(wakeFD, key: Self.wakeKey, events: EPOLLIN.rawValue, add: true)
    }

    deinit {
        close(epoll)
        close(wakeFD)
        if spareFD >= 0 { close(spareFD) }
    }

    var acceptsMoreRequests: Bool { !server.isStopping }

    func register(_ fd: Int32, key: UInt64, events: UInt32, add: Bool) throws {
        var event = epoll_event()
        event.events = events
        event.data.u64 = key
        guard epoll_ctl(epoll, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &event) == 0 else {
            throw HTTPServerError.system("epoll_ctl", errno)
        }
    }

    /// Called from handler threads and streams: queues something to write and wakes the
    /// loop if it was idle.
    func deliver(_ delivery: Delivery) {
        if enqueue(delivery) { wake() }
    }

    /// Queues something to write; true when the loop has to be woken for it (`wake()`), which
    /// a handler thread with more jobs may put off a little to hand over several at once.
    func enqueue(_ delivery: Delivery) -> Bool {
        outbox.withLock { box in
            box.append(delivery)
            return box.count == 1
        }
    }

    func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    // MARK: - The loop

    func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        while true {
            let count = epoll_wait(epoll, &events, Int32(events.count), acceptsPausedUntil == nil ? 1000 : Int32(Self.acceptPause))
            let now = monotonicMilliseconds()
            resumeAcceptingIfDue(now: now)
            if count < 0 && errno != EINTR { break }
            for event in events.prefix(max(0, Int(count))) {
                switch event.data.u64 {
                case Self.listenerKey:
                    if !server.isStopping { acceptAll(now: now) }
                case Self.wakeKey:
                    var value: UInt64 = 0
                    _ = read(wakeFD, &value, 8)
                    writeDeliveries(now: now)
                default:
                    guard let connection = connections[event.data.u64] else { continue }
                    let flags = event.events
                    if flags & (EPOLLERR.rawValue) != 0 {
                        closeConnection(connection)
                        continue
                    }
                    if flags & EPOLLOUT.rawValue != 0, connection.hasOutput { flush(connection, now: now) }
                    if flags & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLRDHUP.rawValue) != 0 {
                        connection.readable = true
                        service(connection, now: now)
                    }
                }
            }
            if !accessLog.isEmpty { HandlerPool.write(&accessLog) }
            if now - lastSweep >= 1000 || server.isStopping {
                lastSweep = now
                if server.isStopping { takeLastConnections(now: now) }
                sweep(now: now)
                if server.isStopping && shouldExit(now: now) { break }
            }
        }
        takeLastConnections(now: monotonicMilliseconds())
        for connection in connections.values { closeConnection(connection) }
    }

    /// Once, when the server stops: accepts what is queued on the listener, since a wake-up
    /// this loop took and ignored may have been the only one for a client (see `stop()`).
    func takeLastConnections(now: Int) {
        guard !tookLastConnections else { return }
        tookLastConnections = true
        acceptAll(now: now)
        server.tookLastConnections()
    }

    func shouldExit(now: Int) -> Bool {
        if stopDeadline == nil { stopDeadline = now + server.configuration.shutdownGrace * 1000 }
        return connections.isEmpty || now >= stopDeadline!
    }
}
