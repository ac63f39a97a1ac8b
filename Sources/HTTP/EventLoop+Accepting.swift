import CEpoll
import Foundation
import Glibc

extension EventLoop {
    func acceptAll(now: Int) {
        while true {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept4(listener, $0, &length, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
                }
            }
            guard fd >= 0 else {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE: refuseWithSpareDescriptor(now: now)
                case EAGAIN, EWOULDBLOCK: break
                default: pauseAccepting(now: now)  // ENOBUFS, ENOMEM: give the kernel a moment
                }
                return
            }
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
                limits: server.configuration.limits, allowsUpload: { [handler = server.handler] in handler.allowsUpload($0) }, now: now
            )
            connections[id] = connection
            let events = EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue
            if (try? register(fd, key: id, events: events, add: true)) == nil {
                closeConnection(connection)
            }
        }
    }

    /// Out of descriptors, the pending connection would stay in the queue and wake every
    /// loop again at once: a busy spin. Free the spare descriptor, take the connection, tell
    /// it 503 and close it; if even that fails, stop accepting for a moment.
    func refuseWithSpareDescriptor(now: Int) {
        guard spareFD >= 0 else { return pauseAccepting(now: now) }
        close(spareFD)
        let fd = accept4(listener, nil, nil, Int32(SOCK_CLOEXEC.rawValue))
        if fd >= 0 {
            let refusal = HTTPResponseWriter.plain(.serviceUnavailable, message: "The server is at capacity; try again shortly.")
            _ = (refusal.head + refusal.body).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        if spareFD < 0 { pauseAccepting(now: now) }
    }

    /// Takes the listener out of this loop's epoll set for `acceptPause` milliseconds.
    func pauseAccepting(now: Int) {
        guard acceptsPausedUntil == nil else { return }
        var event = epoll_event()
        epoll_ctl(epoll, EPOLL_CTL_DEL, listener, &event)
        acceptsPausedUntil = now + Self.acceptPause
    }

    func resumeAcceptingIfDue(now: Int) {
        guard let until = acceptsPausedUntil, now >= until, !server.isStopping else { return }
        acceptsPausedUntil = nil
        if spareFD < 0 { spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC) }
        try? register(listener, key: Self.listenerKey, events: EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue, add: true)
    }

    static func describe(_ address: sockaddr_storage) -> String {
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

}
