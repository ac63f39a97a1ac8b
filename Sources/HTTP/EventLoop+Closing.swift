import CEpoll
import Foundation
import Glibc

extension EventLoop {
    /// Shuts the write side and reads what the client still sends, so that our last response
    /// is not destroyed by a TCP reset when unread request bytes remain (RFC 9112 §9.6).
    func beginClosing(_ connection: HTTPConnection, now: Int) {
        shutdown(connection.fd, Int32(SHUT_WR))
        connection.drainingSince = now
        connection.readable = true
        drain(connection)
    }

    func drain(_ connection: HTTPConnection) {
        while true {
            let count = scratch.withUnsafeMutableBytes { read(connection.fd, $0.baseAddress, $0.count) }
            if count > 0 { continue }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            closeConnection(connection)
            return
        }
    }

    func closeConnection(_ connection: HTTPConnection) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        server.releaseInput(connection.reservedInput)
        connection.reservedInput = 0
        close(connection.fd)
        server.closeConnection()
    }

    /// Once a second: end connections that are idle too long or too slow.
    func sweep(now: Int) {
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

    func isTooSlow(_ connection: HTTPConnection, now: Int) -> Bool {
        let limits = server.configuration
        let elapsed = now - connection.requestStartedAt
        if !connection.parser.isReadingBody { return elapsed > limits.headerTimeout * 1000 }
        if now - connection.lastActivity > limits.headerTimeout * 1000 { return true }
        // However steady, a body that never ends would hold its memory for ever.
        if elapsed > limits.bodyTimeout * 1000 { return true }
        // A body may take as long as it likes while it keeps up the minimum rate.
        return elapsed > limits.headerTimeout * 1000 && connection.requestBytes * 1000 / elapsed < limits.minimumBodyRate
    }
}
