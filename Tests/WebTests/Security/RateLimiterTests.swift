import Foundation
import Testing
@testable import Web

@Suite struct RateLimiterTests {
    @Test func aKeyWaitsOnceItReachesItsLimitUntilTheOldestEventLeavesTheWindow() {
        // Given three tries a minute
        let limiter = RateLimiter("test", limit: 3, window: 60)
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        for second in 0..<3 {
            #expect(limiter.retryAfter("10.0.0.1", now: start.addingTimeInterval(Double(second))) == nil)
            limiter.record("10.0.0.1", now: start.addingTimeInterval(Double(second)))
        }
        // Then the fourth waits until the first try is a minute old
        #expect(limiter.retryAfter("10.0.0.1", now: start.addingTimeInterval(10)) == 50)
        #expect(limiter.retryAfter("10.0.0.1", now: start.addingTimeInterval(60)) == nil)
        // And another key is not held back
        #expect(limiter.retryAfter("10.0.0.2", now: start.addingTimeInterval(10)) == nil)
    }

    @Test func aResetForgetsAKey() {
        let limiter = RateLimiter("test", limit: 1, window: 60)
        let now = Date()
        limiter.record("mina", now: now)
        #expect(limiter.retryAfter("mina", now: now) != nil)
        limiter.reset("mina")
        #expect(limiter.retryAfter("mina", now: now) == nil)
    }

    @Test func aStoredTimeFromAnotherClockNeverMakesAWaitLongerThanTheWindow() {
        // Given an event recorded "in the future" (another server's clock ahead of ours)
        let limiter = RateLimiter("test", limit: 1, window: 60)
        let now = Date()
        limiter.record("jun", now: now.addingTimeInterval(3_600))
        // Then the wait is at most the window
        let wait = limiter.retryAfter("jun", now: now)
        #expect(wait.map { (1...60).contains($0) } ?? false)
    }
}
