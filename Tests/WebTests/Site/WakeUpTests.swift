import Foundation
import Testing
@testable import Web

@Suite struct WakeUpTests {
    @Test func aRingBeforeTheWaitIsKeptAndTheWaitReturnsAtOnce() {
        // Given a ring while the worker was busy
        let wakeUp = WakeUp()
        wakeUp.ring()
        // When it waits with a long poll interval
        let start = Date()
        wakeUp.wait(seconds: 30)
        // Then it does not wait it out
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test func aRingIsUsedOnce() {
        // Given one ring, taken by one wait
        let wakeUp = WakeUp()
        wakeUp.ring()
        wakeUp.wait(seconds: 30)
        // Then the next wait lasts its interval
        let start = Date()
        wakeUp.wait(seconds: 0.2)
        #expect(Date().timeIntervalSince(start) >= 0.15)
    }

    @Test func aRingFromAnotherThreadEndsAWait() {
        // Given a worker waiting with a long poll interval
        let wakeUp = WakeUp()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { wakeUp.ring() }
        // When another thread rings
        let start = Date()
        wakeUp.wait(seconds: 30)
        // Then the wait ends
        #expect(Date().timeIntervalSince(start) < 5)
    }
}
