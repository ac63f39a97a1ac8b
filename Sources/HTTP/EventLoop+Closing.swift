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
        connection.stream?.ended()
    }

    /// Once a second: end connections that are idle too long or too slow.
    func sweep(now: Int) {
        let limits = server.configuration
        for connection in Array(connections.values) where !connection.inFlight {
            if connection.stream != nil, connection.drainingSince == nil {
                // Never idle (its writer sends heartbeats); stuck when nothing could be written.
                let stuck = connection.hasOutput && now - connection.lastActivity > limits.writeTimeout * 1000
                if stuck || server.isStopping { closeConnection(connection) }
            } else if let since = connection.drainingSince {
                if now - since > 2000 { closeConnection(connection) }
            } else if connection.hasOutput {
                if now - connection.lastActivity > limits.writeTimeout * 1000 { closeConnection(connection) }
            } else if !connection.parser.hasPartialRequest {
                if isDone(connection, now: now) { closeConnection(connection) }
            } else if isTooSlow(connection, now: now) {
                fail(connection, HTTPError(.requestTimeout), now: now)
            } else if server.isStopping, now >= (stopDeadline ?? now) {
                closeConnection(connection)
            }
        }
    }

    /// Whether a connection with nothing half-read may be closed. Stopping, a keep-alive
    /// connection between requests is closed at once, as every server does; one accepted
    /// just before the stop has not had the time to send its request yet (the client sent
    /// it to a live server), so it gets `firstRequestGrace` to do so.
    func isDone(_ connection: HTTPConnection, now: Int) -> Bool {
        if now - connection.lastActivity > server.configuration.idleTimeout * 1000 { return true }
        guard server.isStopping else { return false }
        return connection.requestsDispatched > 0 || now - connection.acceptedAt > Self.firstRequestGrace
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
