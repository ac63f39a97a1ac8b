import Foundation
import HTTP

/// A few threads for CPU-heavy work (password hashing) with a short queue.
///
/// Argon2id takes ~80 ms and 64 MiB per hash, so running it on every handler thread at once
/// would let a burst of logins exhaust memory and starve other requests. Past the queue
/// limit, callers are turned away with 503 rather than queued without bound.
final class BoundedPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [() -> Void] = []
    private let queueLimit: Int

    init(threads: Int, queueLimit: Int) {
        self.queueLimit = queueLimit
        for index in 0..<threads {
            let thread = Thread { [self] in work() }
            thread.name = "moim-slow-\(index)"
            thread.start()
        }
    }

    /// Runs `job` on the pool and waits for its result.
    func run<T: Sendable>(_ job: @escaping @Sendable () -> T) throws(HTTPError) -> T {
        let done = DispatchSemaphore(value: 0)
        // Written by the worker before `done.signal()`, read here after `done.wait()`.
        nonisolated(unsafe) var result: T?
        condition.lock()
        guard queue.count < queueLimit else {
            condition.unlock()
            throw HTTPError(.serviceUnavailable, headers: ["Retry-After": "5"])
        }
        queue.append {
            result = job()
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        guard let result else { throw HTTPError(.internalServerError) }
        return result
    }

    private func work() {
        while true {
            condition.lock()
            while queue.isEmpty { condition.wait() }
            let job = queue.removeFirst()
            condition.unlock()
            job()
        }
    }
}
