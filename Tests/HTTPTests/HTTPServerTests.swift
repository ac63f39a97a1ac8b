import Foundation
import Synchronization
import Testing
@testable import HTTP
import TestSupport

/// Echoes the path; `/slow` takes a while, to show ordering and graceful stops; `/held` waits
/// until the test lets it go; `/busy` counts the handlers running at once; `/ready` is
/// answered on the event loop.
private struct EchoHandler: HTTPHandler {
    static let held = DispatchSemaphore(value: 0)
    static let busy = Atomic<Int>(0)
    static let mostBusy = Atomic<Int>(0)

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        if request.path == "/slow" { usleep(300_000) }
        if request.path == "/held" { Self.held.wait() }
        if request.path == "/waiting" { HandlerPool.waiting { Self.held.wait() } }
        if request.path == "/busy" {
            let now = Self.busy.add(1, ordering: .sequentiallyConsistent).newValue
            Self.mostBusy.max(now, ordering: .sequentiallyConsistent)
            usleep(20_000)
            Self.busy.subtract(1, ordering: .sequentiallyConsistent)
        }
        return .text("path=\(request.path) body=\(request.bodyText)")
    }

    func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        request.path == "/ready" ? .text("ready") : nil
    }
}

/// Starts a server on a random loopback port; the caller stops it.
private func startServer(_ adjust: (inout HTTPServer.Configuration) -> Void = { _ in }) throws -> HTTPServer {
    var configuration = HTTPServer.Configuration()
    configuration.port = 0
    configuration.accessLog = false
    adjust(&configuration)
    let server = HTTPServer(configuration: configuration, handler: EchoHandler())
    try server.start()
    return server
}

/// Runs `body` with a server started for it.
private func withServer(_ adjust: (inout HTTPServer.Configuration) -> Void = { _ in }, _ body: (HTTPServer) throws -> Void) throws {
    let server = try startServer(adjust)
    defer { server.stop() }
    try body(server)
}

@Suite(.serialized) struct HTTPServerTests {
    @Test func keepsTheConnectionAliveForASecondRequest() throws {
        try withServer { server in
            let client = try LoopbackClient(port: server.port)
            client.send("GET /one HTTP/1.1\r\nHost: t\r\n\r\n")
            let first = client.read { $0.contains("path=/one") }
            #expect(first.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(first.contains("Content-Length: "))
            #expect(first.contains("Date: "))
            client.send("GET /two HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(client.read { $0.contains("path=/two") }.contains("path=/two"))
        }
    }

    @Test func answersPipelinedRequestsInOrder() throws {
        try withServer { server in
            let client = try LoopbackClient(port: server.port)
            client.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\nGET /fast HTTP/1.1\r\nHost: t\r\n\r\nGET /last HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            let all = client.read()
            #expect(all.responseCount == 3)
            let slow = try #require(all.range(of: "path=/slow")), fast = try #require(all.range(of: "path=/fast"))
            let last = try #require(all.range(of: "path=/last"))
            #expect(slow.lowerBound < fast.lowerBound && fast.lowerBound < last.lowerBound)
            #expect(all.contains("Connection: close"))
        }
    }

    /// A health check is answered by the event loop itself: while every handler thread is busy
    /// (here the only one, held), it still answers at once.
    @Test func answersAHealthCheckWhileEveryHandlerIsBusy() throws {
        try withServer({ $0.handlerThreads = 1 }) { server in
            let busy = try LoopbackClient(port: server.port)
            busy.send("GET /held HTTP/1.1\r\nHost: t\r\n\r\n")
            usleep(50_000)
            let check = try LoopbackClient(port: server.port)
            check.send("GET /ready HTTP/1.1\r\nHost: t\r\n\r\nHEAD /ready HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            let answers = check.read()
            EchoHandler.held.signal()
            #expect(answers.responseCount == 2)
            #expect(answers.hasPrefix("HTTP/1.1 200 OK\r\n") && answers.components(separatedBy: "ready").count == 2)  // HEAD: no body
            #expect(answers.contains("Content-Length: 5") && answers.contains("Connection: close"))
            #expect(busy.read { $0.contains("path=/held") }.contains("path=/held"))
        }
    }

    /// Answers given on the loop follow one another in a loop, not by recursion: thousands
    /// pipelined in one write are answered in order, then a request for a handler thread.
    @Test func answersThousandsOfPipelinedHealthChecksInOrder() throws {
        try withServer { server in
            let client = try LoopbackClient(port: server.port)
            let requests = String(repeating: "GET /ready HTTP/1.1\r\nHost: t\r\n\r\n", count: 5_000)
                + "GET /last HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
            nonisolated(unsafe) let sender = client
            Thread.detachNewThread { sender.send(requests) }
            let answers = client.read()
            #expect(answers.responseCount == 5_001)
            #expect(answers.components(separatedBy: "\r\n\r\nready").count == 5_001)
            #expect(answers.hasSuffix("path=/last body="))
        }
    }

    @Test func readsChunkedBodiesAndAnswersHeadWithoutABody() throws {
        try withServer { server in
            let client = try LoopbackClient(port: server.port)
            client.send("POST /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
            #expect(client.read { $0.contains("body=abc") }.contains("body=abc"))
            client.send("HEAD /h HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            let head = client.read()
            #expect(head.contains("Content-Length: 13"))  // "path=/h body="
            #expect(!head.contains("path=/h"))
        }
    }

    @Test func speaksHTTP10() throws {
        try withServer { server in
            let client = try LoopbackClient(port: server.port)
            client.send("GET /old HTTP/1.0\r\n\r\n")
            let response = client.read()
            #expect(response.hasPrefix("HTTP/1.0 200 OK"))
            #expect(response.contains("Connection: close"))
        }
    }

    private static let hostileRequests: [String: String] = [
        "long target": "GET /\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: t\r\n\r\n",
        "huge header": "GET / HTTP/1.1\r\nHost: t\r\nX-Big: \(String(repeating: "b", count: 40_000))\r\n\r\n",
        "large body": "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 5000000\r\n\r\n",
        "bare LF": "GET / HTTP/1.1\nHost: t\n\n",
        "unknown method": "BREW / HTTP/1.1\r\nHost: t\r\n\r\n",
        "HTTP/2 preface": "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    ]

    @Test(arguments: [
        ("long target", 414), ("huge header", 431), ("large body", 413),
        ("bare LF", 400), ("unknown method", 501), ("HTTP/2 preface", 505),
    ])
    func answersLimitsWithTheirStatusAndCloses(_ name: String, _ code: Int) throws {
        try withServer { server in
            let client = try LoopbackClient(port: server.port)
            client.send(Self.hostileRequests[name]!)
            let response = client.read()
            #expect(response.hasPrefix("HTTP/1.1 \(code) "))
            #expect(response.contains("Connection: close"))
        }
    }

    @Test func cutsOffAClientThatStallsHalfwayThroughItsHead() throws {
        try withServer({ $0.headerTimeout = 1 }) { server in
            let client = try LoopbackClient(port: server.port, readTimeout: 5)
            client.send("GET / HTTP/1.1\r\nHost: t\r\nX-Half")
            let started = Date()
            let response = client.read()
            #expect(response.hasPrefix("HTTP/1.1 408 "))
            #expect(Date().timeIntervalSince(started) < 4)
        }
    }

    @Test func closesIdleKeptAliveConnectionsQuietly() throws {
        try withServer({ $0.idleTimeout = 1 }) { server in
            let client = try LoopbackClient(port: server.port, readTimeout: 5)
            client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            _ = client.read { $0.contains("path=/") }
            #expect(client.read() == "")
        }
    }

    @Test func refusesConnectionsOverTheCap() throws {
        try withServer({ $0.maxConnections = 1 }) { server in
            let first = try LoopbackClient(port: server.port)
            first.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            _ = first.read { $0.contains("path=/") }
            let second = try LoopbackClient(port: server.port)
            #expect(second.read().hasPrefix("HTTP/1.1 503 "))
        }
    }

    @Test func finishesRequestsInFlightWhenStopping() throws {
        let server = try startServer()
        let client = try LoopbackClient(port: server.port)
        client.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        usleep(50_000)
        server.stop()
        let response = client.read()
        #expect(response.contains("path=/slow"))
        #expect(response.contains("Connection: close"))
        #expect((try? LoopbackClient(port: server.port)) == nil)
    }

    /// A client connects to a live server and sends its request a moment later: a stop in
    /// between (as at a hand-over to a new server) must still answer it.
    @Test func answersAConnectionAcceptedJustBeforeTheStop() throws {
        let server = try startServer()
        let client = try LoopbackClient(port: server.port)
        usleep(50_000)  // accepted by now
        let stopped = DispatchGroup()
        DispatchQueue.global().async(group: stopped) { server.stop() }
        usleep(200_000)
        client.send("GET /late HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(client.read().contains("path=/late"))
        stopped.wait()
    }

    /// With one processor, requests that came together run one after another on the pool's
    /// threads, not sliced between them.
    @Test func runsOneHandlerAtATimePerProcessor() throws {
        EchoHandler.mostBusy.store(0, ordering: .sequentiallyConsistent)
        try withServer({ $0.runningHandlers = 1; $0.handlerPatience = .seconds(30) }) { server in
            let clients = try (0..<4).map { _ in try LoopbackClient(port: server.port) }
            let started = DispatchTime.now().uptimeNanoseconds
            for client in clients { client.send("GET /busy HTTP/1.1\r\nHost: t\r\n\r\n") }
            for client in clients { #expect(client.read { $0.contains("path=/busy") }.contains("path=/busy")) }
            #expect(DispatchTime.now().uptimeNanoseconds - started >= 80_000_000)
            #expect(EchoHandler.mostBusy.load(ordering: .sequentiallyConsistent) == 1)
        }
    }

    /// A handler that blocks holds the one processor's queue only for the pool's patience:
    /// the next request runs beside it.
    @Test func aBlockedHandlerHoldsTheOthersOnlyForItsPatience() throws {
        try withServer({ $0.runningHandlers = 1 }) { server in
            let blocked = try LoopbackClient(port: server.port)
            blocked.send("GET /held HTTP/1.1\r\nHost: t\r\n\r\n")
            usleep(50_000)
            let next = try LoopbackClient(port: server.port)
            next.send("GET /next HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(next.read { $0.contains("path=/next") }.contains("path=/next"))
            EchoHandler.held.signal()
            #expect(blocked.read { $0.contains("path=/held") }.contains("path=/held"))
        }
    }

    /// A handler waiting for another process (PostgreSQL's answer) gives its processor up at
    /// once: the next request runs meanwhile, long before the pool's patience.
    @Test func aHandlerWaitingForAnotherProcessLetsTheNextRun() throws {
        try withServer({ $0.runningHandlers = 1; $0.handlerPatience = .seconds(30) }) { server in
            let waiting = try LoopbackClient(port: server.port, readTimeout: 10)
            waiting.send("GET /waiting HTTP/1.1\r\nHost: t\r\n\r\n")
            usleep(50_000)
            let next = try LoopbackClient(port: server.port, readTimeout: 10)
            let started = Date()
            next.send("GET /next HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(next.read { $0.contains("path=/next") }.contains("path=/next"))
            #expect(Date().timeIntervalSince(started) < 5)
            EchoHandler.held.signal()
            #expect(waiting.read { $0.contains("path=/waiting") }.contains("path=/waiting"))
        }
    }
}
