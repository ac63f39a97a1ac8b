import Foundation
import HTTP
import Testing
@testable import Web

@Suite struct BoundedPoolTests {
    @Test func aJobRunsOnThePoolAndItsResultComesBack() throws {
        let pool = BoundedPool(threads: 2, queueLimit: 4)
        #expect(try pool.run { 6 * 7 } == 42)
        // On one of the pool's own threads, not the caller's
        let caller = pthread_self()
        #expect(try pool.run { pthread_equal(pthread_self(), caller) } == 0)
    }

    @Test func pastTheQueueLimitACallerIsTurnedAwayWith503() throws {
        // Given the pool's one thread held by a job, and a second job queued behind it
        let pool = BoundedPool(threads: 1, queueLimit: 1)
        let release = DispatchSemaphore(value: 0)
        let running = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? pool.run { running.signal(); release.wait(); return 1 }
            done.signal()
        }
        running.wait()
        Thread.detachNewThread {
            _ = try? pool.run { 2 }
            done.signal()
        }
        Thread.sleep(forTimeInterval: 0.2)  // the second job is queued within microseconds

        // When a third comes
        var refusal: HTTPError?
        do throws(HTTPError) { _ = try pool.run { 3 } } catch { refusal = error }

        // Then it is refused at once, with a time to come back, and the others still finish
        #expect(refusal?.status == .serviceUnavailable)
        #expect(refusal?.headers["Retry-After"] == "5")
        release.signal()
        #expect(done.wait(timeout: .now() + 10) == .success && done.wait(timeout: .now() + 10) == .success)
    }
}
