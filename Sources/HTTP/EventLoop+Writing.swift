import CEpoll
import Foundation
import Glibc

extension EventLoop {
    func writeDeliveries(now: Int) {
        let deliveries = outbox.withLock { box in
            let taken = box
            box.removeAll(keepingCapacity: true)
            return taken
        }
        for delivery in deliveries {
            guard let connection = connections[delivery.connection] else { continue }
            connection.inFlight = false
            releaseInput(for: connection)
            connection.closeAfterWrite = !delivery.keepAlive
            connection.queue(head: delivery.head, body: delivery.body)
            connection.lastActivity = now
            flush(connection, now: now)
        }
    }

    /// Writes what the socket takes; once everything is out, closes or serves the next request.
    func flush(_ connection: HTTPConnection, now: Int) {
        guard writeOutput(connection, now: now) == .done else { return }
        if connection.closeAfterWrite || server.isStopping && connection.isIdle {
            beginClosing(connection, now: now)
        } else {
            service(connection, now: now)
        }
    }

    enum WriteResult { case done, pending, failed }

    func writeOutput(_ connection: HTTPConnection, now: Int) -> WriteResult {
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
}
