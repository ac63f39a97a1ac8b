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
            switch delivery {
            case let .response(id, head, body, keepAlive, stream):
                guard let connection = connections[id] else {
                    stream?.ended()
                    continue
                }
                connection.inFlight = false
                releaseInput(for: connection)
                connection.closeAfterWrite = !keepAlive && stream == nil
                connection.stream = stream
                connection.queue(head: head, body: body)
                connection.lastActivity = now
                flush(connection, now: now)
            case let .streamData(id, bytes):
                guard let connection = connections[id], connection.stream != nil, connection.drainingSince == nil else { continue }
                connection.append(bytes)
                // A reader this far behind is not reading: the stream is not worth the memory.
                guard connection.backlog <= HTTPStream.backlogLimit else {
                    closeConnection(connection)
                    continue
                }
                flush(connection, now: now)
            case let .streamEnd(id):
                guard let connection = connections[id], connection.stream != nil, connection.drainingSince == nil else { continue }
                connection.closeAfterWrite = true
                flush(connection, now: now)
            }
        }
    }

    /// Writes what the socket takes; once everything is out, closes or serves the next request.
    func flush(_ connection: HTTPConnection, now: Int) {
        guard writeOutput(connection, now: now) == .done else { return }
        if endsAfterWriting(connection) {
            beginClosing(connection, now: now)
        } else if connection.stream != nil {
            drain(connection)  // what a stream's client sends is read and dropped
        } else {
            service(connection, now: now)
        }
    }

    /// Whether a connection whose answer is all written ends now: the answer said so, or the
    /// server is stopping and nothing is under way on it.
    func endsAfterWriting(_ connection: HTTPConnection) -> Bool {
        connection.closeAfterWrite || server.isStopping && connection.isIdle
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
