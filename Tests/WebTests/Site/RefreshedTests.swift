import Foundation
import Testing
@testable import Web

@Suite struct RefreshedTests {
    @Test func aValueIsKeptForItsLifetimeThenComputedAgain() {
        // Given a value computed once, kept for a minute
        let refreshed = Refreshed<Int>(lifetime: 60)
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        var computed = 0
        let next = { () -> Int in computed += 1; return computed }
        #expect(refreshed.value(now: start, next) == 1)
        // Then within the minute it is not computed again
        #expect(refreshed.value(now: start.addingTimeInterval(59), next) == 1)
        // And once the minute is up it is
        #expect(refreshed.value(now: start.addingTimeInterval(60), next) == 2)
        #expect(computed == 2)
    }

    @Test func aFailedComputationKeepsNothing() {
        struct Failed: Error {}
        let refreshed = Refreshed<Int>(lifetime: 60)
        let now = Date()
        #expect(throws: Failed.self) { try refreshed.value(now: now) { throw Failed() } }
        #expect(refreshed.value(now: now) { 7 } == 7)
    }
}
