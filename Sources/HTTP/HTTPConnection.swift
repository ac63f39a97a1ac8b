/// One client connection; owned and touched only by its event loop's thread.
final class HTTPConnection {
    let fd: Int32
    let id: UInt64
    let remoteAddress: String
    var parser: HTTPRequestParser

    /// Bytes still to write: a response head, then its body.
    var outputHead: [UInt8] = []
    var outputBody: [UInt8] = []
    var written = 0

    /// A request has gone to a handler and its response has not been written yet.
    var inFlight = false
    /// The kernel may hold unread bytes (the socket is edge-triggered).
    var readable = false
    var closeAfterWrite = false
    /// After an error response: the write side is shut and further input is read and dropped.
    var drainingSince: Int?

    /// Once it answered with a stream: the stream, written to until either side ends it.
    var stream: HTTPStream?

    /// Input bytes this connection holds on the server's budget (see `freeInput`).
    var reservedInput = 0

    /// Requests handed to a handler on this connection so far.
    var requestsDispatched = 0
    let acceptedAt: Int
    var lastActivity: Int
    var requestStartedAt: Int
    var requestBytes = 0

    /// Input a connection may hold without drawing on the server's budget: an ordinary
    /// request head and a small form fit in it. Anything larger, a 40 KiB head included,
    /// draws on the budget, so 4,096 hostile connections hold at most 4,096 × 16 KiB plus
    /// the budget.
    static let freeInput = 16 * 1024
    /// The budget is drawn on in steps of this size, not per read.
    static let inputStep = 256 * 1024

    init(fd: Int32, id: UInt64, remoteAddress: String, limits: HTTPRequestParser.Limits,
         allowsUpload: @escaping @Sendable (HTTPRequest) -> Bool, now: Int) {
        self.fd = fd
        self.id = id
        self.remoteAddress = remoteAddress
        self.parser = HTTPRequestParser(limits: limits)
        self.parser.allowsUpload = allowsUpload
        self.acceptedAt = now
        self.lastActivity = now
        self.requestStartedAt = now
    }

    var hasOutput: Bool { written < outputHead.count + outputBody.count }

    /// Between requests, with nothing half-read or unwritten: safe to close at any time.
    var isIdle: Bool { !inFlight && !hasOutput && !parser.hasPartialRequest }

    func queue(head: [UInt8], body: [UInt8]) {
        outputHead = head
        outputBody = body
        written = 0
    }

    /// Adds to what is still to write (a stream's next event).
    func append(_ bytes: [UInt8]) {
        if hasOutput { outputBody.append(contentsOf: bytes) } else { queue(head: [], body: bytes) }
    }

    /// Bytes queued and not written yet.
    var backlog: Int { outputHead.count + outputBody.count - written }
}
