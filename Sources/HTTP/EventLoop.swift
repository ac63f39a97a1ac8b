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
    private static let listenerKey: UInt64 = 0
    private static let wakeKey: UInt64 = 1

    private let index: Int
    private let epoll: Int32
    private let wakeFD: Int32
    private let listener: Int32
    private unowned let server: HTTPServer
    private var connections: [UInt64: HTTPConnection] = [:]
    private var nextID: UInt64
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    private var lastSweep = 0
    private var stopDeadline: Int?

    private struct Delivery {
        let connection: UInt64
        let head: [UInt8]
        let body: [UInt8]
        let keepAlive: Bool
    }
    private let outbox = Mutex<[Delivery]>([])

    init(index: Int, listener: Int32, server: HTTPServer) throws {
        self.index = index
        self.listener = listener
        self.server = server
        self.nextID = UInt64(index) << 48 + 2
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        guard epoll >= 0, wakeFD >= 0 else { throw HTTPServerError.system("epoll/eventfd", errno) }
        // EPOLLEXCLUSIVE wakes one loop per new connection instead of all of them.
        try register(listener, key: Self.listenerKey, events: EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue, add: true)
        try register(wakeFD, key: Self.wakeKey, events: EPOLLIN.rawValue, add: true)
    }

    deinit {
        close(epoll)
        close(wakeFD)
    }

    var acceptsMoreRequests: Bool { !server.isStopping }

    private func register(_ fd: Int32, key: UInt64, events: UInt32, add: Bool) throws {
        var event = epoll_event()
        event.events = events
        event.data.u64 = key
        guard epoll_ctl(epoll, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &event) == 0 else {
            throw HTTPServerError.system("epoll_ctl", errno)
        }
    }

    /// Called from handler threads: queues a response and wakes the loop if it was idle.
    func deliver(_ connection: UInt64, head: [UInt8], body: [UInt8], keepAlive: Bool) {
        let wasEmpty = outbox.withLock { box in
            box.append(Delivery(connection: connection, head: head, body: body, keepAlive: keepAlive))
            return box.count == 1
        }
        if wasEmpty { wake() }
    }

    func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    // MARK: - The loop

    func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        while true {
            let count = epoll_wait(epoll, &events, Int32(events.count), 1000)
            let now = monotonicMilliseconds()
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
            if now - lastSweep >= 1000 || server.isStopping {
                lastSweep = now
                sweep(now: now)
                if server.isStopping && shouldExit(now: now) { break }
            }
        }
        for connection in connections.values { closeConnection(connection) }
    }

    private func shouldExit(now: Int) -> Bool {
        if stopDeadline == nil { stopDeadline = now + server.configuration.shutdownGrace * 1000 }
        return connections.isEmpty || now >= stopDeadline!
    }

    // MARK: - Accepting

    private func acceptAll(now: Int) {
        while true {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept4(listener, $0, &length, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
                }
            }
            guard fd >= 0 else { return }
            guard server.openConnection() else {
                let refusal = HTTPResponseWriter.plain(.serviceUnavailable, message: "Too many connections.")
                _ = (refusal.head + refusal.body).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
                continue
            }
            var on: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            let id = nextID
            nextID += 1
            let connection = HTTPConnection(
                fd: fd, id: id, remoteAddress: Self.describe(address),
                limits: server.configuration.limits, now: now
            )
            connections[id] = connection
            let events = EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue
            if (try? register(fd, key: id, events: events, add: true)) == nil {
                closeConnection(connection)
            }
        }
    }

    private static func describe(_ address: sockaddr_storage) -> String {
        var address = address
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch Int32(address.ss_family) {
        case AF_INET:
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    var ip = $0.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &ip, &text, socklen_t(text.count))
                }
            }
        case AF_INET6:
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    var ip = $0.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &ip, &text, socklen_t(text.count))
                }
            }
        default:
            return ""
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: - Reading and parsing

    /// Parses what is buffered and reads more, until a request goes to a handler, the socket
    /// has nothing more, or the connection ends.
    private func service(_ connection: HTTPConnection, now: Int) {
        if connection.drainingSince != nil {
            drain(connection)
            return
        }
        while !connection.inFlight, !connection.hasOutput {
            do {
                if var request = try connection.parser.nextRequest() {
                    dispatch(&request, on: connection, now: now)
                    return
                }
            } catch {
                fail(connection, error, now: now)
                return
            }
            if connection.parser.takeContinueRequest() {
                connection.queue(head: Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), body: [])
                guard writeOutput(connection, now: now) == .done else { return }
                continue
            }
            guard connection.readable else { return }
            let count = scratch.withUnsafeMutableBytes { read(connection.fd, $0.baseAddress, $0.count) }
            if count > 0 {
                if !connection.parser.hasPartialRequest {
                    connection.requestStartedAt = now
                    connection.requestBytes = 0
                }
                connection.requestBytes += count
                connection.lastActivity = now
                scratch.withUnsafeBytes { connection.parser.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                closeConnection(connection)
                return
            } else if errno != EINTR {
                connection.readable = false
            }
        }
    }

    private func dispatch(_ request: inout HTTPRequest, on connection: HTTPConnection, now: Int) {
        connection.inFlight = true
        request.remoteAddress = connection.remoteAddress
        request.id = server.nextRequestID()
        server.pool.submit(HandlerPool.Job(loop: self, connection: connection.id, request: request, receivedAt: now))
    }

    /// Answers a request the parser refused, then closes once the answer is out. The page
    /// comes from the handler (rare, small), rendered here on the loop.
    private func fail(_ connection: HTTPConnection, _ error: HTTPError, now: Int) {
        var request = connection.parser.failedHead ?? HTTPRequest(method: .get, target: "/")
        request.remoteAddress = connection.remoteAddress
        request.id = server.nextRequestID()
        var response = server.handler.refusal(error, for: request)
        response.headers.set("Cache-Control", "no-store")
        let head = HTTPResponseWriter.head(for: response, version: .http1_1, keepAlive: false, isHead: request.method == .head)
        connection.queue(head: head, body: request.method == .head ? [] : response.body)
        connection.closeAfterWrite = true
        flush(connection, now: now)
    }

    // MARK: - Writing

    private func writeDeliveries(now: Int) {
        let deliveries = outbox.withLock { box in
            let taken = box
            box.removeAll(keepingCapacity: true)
            return taken
        }
        for delivery in deliveries {
            guard let connection = connections[delivery.connection] else { continue }
            connection.inFlight = false
            connection.closeAfterWrite = !delivery.keepAlive
            connection.queue(head: delivery.head, body: delivery.body)
            connection.lastActivity = now
            flush(connection, now: now)
        }
    }

    /// Writes what the socket takes; once everything is out, closes or serves the next request.
    private func flush(_ connection: HTTPConnection, now: Int) {
        guard writeOutput(connection, now: now) == .done else { return }
        if connection.closeAfterWrite || server.isStopping && connection.isIdle {
            beginClosing(connection, now: now)
        } else {
            service(connection, now: now)
        }
    }

    private enum WriteResult { case done, pending, failed }

    private func writeOutput(_ connection: HTTPConnection, now: Int) -> WriteResult {
        while connection.hasOutput {
            let headCount = connection.outputHead.count
            let count = connection.outputHead.withUnsafeBytes { head in
                connection.outputBody.withUnsafeBytes { body in
                    var vectors: [iovec] = []
                    if connection.written < headCount {
                        vectors.append(iovec(
                            iov_base: UnsafeMutableRawPointer(mutating: head.baseAddress! + connection.written),
                            iov_len: headCount - connection.written))
                    }
                    let bodyOffset = max(0, connection.written - headCount)
                    if bodyOffset < body.count {
                        vectors.append(iovec(
                            iov_base: UnsafeMutableRawPointer(mutating: body.baseAddress! + bodyOffset),
                            iov_len: body.count - bodyOffset))
                    }
                    return writev(connection.fd, vectors, Int32(vectors.count))
                }
            }
            if count > 0 {
                connection.written += count
                connection.lastActivity = now
            } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                return .pending
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                closeConnection(connection)
                return .failed
            }
        }
        connection.outputHead = []
        connection.outputBody = []
        connection.written = 0
        return .done
    }

    // MARK: - Closing

    /// Shuts the write side and reads what the client still sends, so that our last response
    /// is not destroyed by a TCP reset when unread request bytes remain (RFC 9112 §9.6).
    private func beginClosing(_ connection: HTTPConnection, now: Int) {
        shutdown(connection.fd, Int32(SHUT_WR))
        connection.drainingSince = now
        connection.readable = true
        drain(connection)
    }

    private func drain(_ connection: HTTPConnection) {
        while true {
            let count = scratch.withUnsafeMutableBytes { read(connection.fd, $0.baseAddress, $0.count) }
            if count > 0 { continue }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            closeConnection(connection)
            return
        }
    }

    private func closeConnection(_ connection: HTTPConnection) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        close(connection.fd)
        server.closeConnection()
    }

    /// Once a second: end connections that are idle too long or too slow.
    private func sweep(now: Int) {
        let limits = server.configuration
        for connection in Array(connections.values) where !connection.inFlight {
            if let since = connection.drainingSince {
                if now - since > 2000 { closeConnection(connection) }
            } else if connection.hasOutput {
                if now - connection.lastActivity > limits.writeTimeout * 1000 { closeConnection(connection) }
            } else if !connection.parser.hasPartialRequest {
                if server.isStopping || now - connection.lastActivity > limits.idleTimeout * 1000 {
                    closeConnection(connection)
                }
            } else if isTooSlow(connection, now: now) {
                fail(connection, HTTPError(.requestTimeout), now: now)
            } else if server.isStopping, now >= (stopDeadline ?? now) {
                closeConnection(connection)
            }
        }
    }

    private func isTooSlow(_ connection: HTTPConnection, now: Int) -> Bool {
        let limits = server.configuration
        let elapsed = now - connection.requestStartedAt
        if !connection.parser.isReadingBody { return elapsed > limits.headerTimeout * 1000 }
        if now - connection.lastActivity > limits.headerTimeout * 1000 { return true }
        // A body may take as long as it likes while it keeps up the minimum rate.
        return elapsed > limits.headerTimeout * 1000 && connection.requestBytes * 1000 / elapsed < limits.minimumBodyRate
    }
}
