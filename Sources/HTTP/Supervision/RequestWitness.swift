/// Watches the handler threads for a supervising process: which request each one is running,
/// so that after a crash the supervisor knows which requests were in flight, and which
/// requests it has found to crash the server, so that they are refused instead of run.
///
/// `begin` and `end` are called on the handler thread `slot` (0 ..< handler threads), around
/// every request; they must not block.
public protocol RequestWitness: Sendable {
    func begin(slot: Int, _ request: HTTPRequest)
    func end(slot: Int)
    func isQuarantined(_ request: HTTPRequest) -> Bool
}
