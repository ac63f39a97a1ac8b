import CEpoll
import Foundation
import Glibc

extension EventLoop {
    /// Parses what is buffered and reads more, until a request goes to a handler, the socket
    /// has nothing more, or the connection ends.
    func service(_ connection: HTTPConnection, now: Int) {
        if connection.drainingSince != nil || connection.stream != nil {
            drain(connection)
            return
        }
        while !connection.inFlight, !connection.hasOutput {
            do {
                if var request = try connection.parser.nextRequest() {
                    guard answerHere(&request, on: connection, now: now) else {
                        dispatch(&request, on: connection, now: now)
                        return
                    }
                    // Answered: write it, then go on to the next request (pipelined ones too,
                    // in this loop rather than by recursion).
                    guard writeOutput(connection, now: now) == .done else { return }
                    if endsAfterWriting(connection) {
                        beginClosing(connection, now: now)
                        return
                    }
                    continue
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
                guard reserveInput(for: connection) else {
                    fail(connection, HTTPError(.serviceUnavailable, message: "Too many large requests at once; try again shortly."), now: now)
                    return
                }
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                closeConnection(connection)
                return
            } else if errno != EINTR {
                connection.readable = false
            }
        }
    }

    /// Draws on the server's input budget for what the connection holds beyond its free
    /// share, in steps; false when the budget is spent.
    func reserveInput(for connection: HTTPConnection) -> Bool {
        let needed = connection.parser.heldBytes - HTTPConnection.freeInput
        guard needed > connection.reservedInput else { return true }
        let step = HTTPConnection.inputStep
        let wanted = (needed + step - 1) / step * step
        guard server.reserveInput(wanted - connection.reservedInput) else { return false }
        connection.reservedInput = wanted
        return true
    }

    /// Gives back what the connection no longer holds (its request was answered).
    func releaseInput(for connection: HTTPConnection) {
        let needed = max(0, connection.parser.heldBytes - HTTPConnection.freeInput)
        guard connection.reservedInput > needed else { return }
        server.releaseInput(connection.reservedInput - needed)
        connection.reservedInput = needed
    }

    func dispatch(_ request: inout HTTPRequest, on connection: HTTPConnection, now: Int) {
        connection.inFlight = true
        connection.requestsDispatched += 1
        identify(&request, on: connection)
        request.id = server.nextRequestID()
        server.pool.submit(HandlerPool.Job(loop: self, connection: connection.id, request: request, receivedAt: now))
    }

    /// Answers on this loop, without a handler thread, a request the handler answers at once
    /// (`HTTPHandler.immediateResponse`), and queues the answer; false for any other request.
    func answerHere(_ request: inout HTTPRequest, on connection: HTTPConnection, now: Int) -> Bool {
        let started = DispatchTime.now().uptimeNanoseconds
        guard let response = server.handler.immediateResponse(to: request) else { return false }
        connection.requestsDispatched += 1
        identify(&request, on: connection)
        request.id = server.nextRequestID()
        let keepAlive = HandlerPool.keepsAlive(request, response, loop: self)
        let isHead = request.method == .head
        let head = HTTPResponseWriter.head(for: response, version: request.version, keepAlive: keepAlive, isHead: isHead)
        if let observer = server.configuration.observer {
            observer.observe(request, response, seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
        }
        if server.configuration.accessLog {
            accessLog.append(contentsOf: HandlerPool.logLine(request, response, milliseconds: monotonicMilliseconds() - now).utf8)
        }
        releaseInput(for: connection)
        connection.closeAfterWrite = !keepAlive
        connection.queue(head: head, body: isHead || !response.allowsBody ? [] : response.body)
        connection.lastActivity = now
        return true
    }

    /// Who sent the request: the peer, or behind a trusted proxy the client it names.
    private func identify(_ request: inout HTTPRequest, on connection: HTTPConnection) {
        let client = server.configuration.trustedProxies.client(peer: connection.remoteAddress, headers: request.headers)
        request.remoteAddress = client.address
        request.isSecure = client.secure
    }

    /// Answers a request the parser refused, then closes once the answer is out. The page
    /// comes from the handler (rare, small), rendered here on the loop.
    func fail(_ connection: HTTPConnection, _ error: HTTPError, now: Int) {
        var request = connection.parser.failedHead ?? HTTPRequest(method: .get, target: "/")
        identify(&request, on: connection)
        request.id = server.nextRequestID()
        var response = server.handler.refusal(error, for: request)
        response.headers.set("Cache-Control", "no-store")
        let head = HTTPResponseWriter.head(for: response, version: .http1_1, keepAlive: false, isHead: request.method == .head)
        connection.queue(head: head, body: request.method == .head ? [] : response.body)
        connection.closeAfterWrite = true
        flush(connection, now: now)
    }
}
