import Synchronization

/// A response that stays open after its head, written to as things happen (Server-Sent Events).
///
/// A handler answers with `HTTPResponse.stream(headers:opened:)`; once the head is on its way
/// the server calls `opened` with this handle, which any thread may `send` to and `close`.
/// Its body has no length: it ends when either side closes the connection. While it is open
/// the connection reads and drops what the client sends, is not closed for being idle (the
/// writer sends heartbeats), and is closed if the client stops reading: when more than
/// `backlogLimit` bytes wait for it, or nothing could be written for the write timeout.
public final class HTTPStream: Sendable {
    /// Bytes that may wait for a slow reader before the stream is closed.
    public static let backlogLimit = 256 * 1024

    private weak let loop: EventLoop?
    let connection: UInt64
    private let state = Mutex(State())

    private struct State {
        var closed = false
        var onClose: (@Sendable () -> Void)?
    }

    init(loop: EventLoop, connection: UInt64) {
        self.loop = loop
        self.connection = connection
    }

    /// False once the connection has ended, from either side.
    public var isOpen: Bool { !state.withLock(\.closed) }

    /// Queues `bytes` to be written after what was sent before; false if the stream has ended.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        guard isOpen, let loop else { return false }
        loop.deliver(.streamData(connection, bytes))
        return true
    }

    /// Ends the stream: what was sent before is written first, then the connection closes.
    public func close() {
        guard isOpen, let loop else { return }
        loop.deliver(.streamEnd(connection))
    }

    /// Called once, on the event loop's thread, when the connection ends: it must be quick.
    /// If it has ended already, `handler` runs at once.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let run = state.withLock { state in
            if state.closed { return true }
            state.onClose = handler
            return false
        }
        if run { handler() }
    }

    /// The connection has ended.
    func ended() {
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.closed else { return nil }
            state.closed = true
            defer { state.onClose = nil }
            return state.onClose
        }
        handler?()
    }
}
