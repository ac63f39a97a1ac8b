import Foundation
import Testing
import TestSupport
@testable import Storage

/// Rate limits kept in the database, so that servers sharing it count together.
@Suite struct RateEventQueriesTests {
    @Test func eventsAreCountedWithinTheWindowAndResetTogether() throws {
        let database = try TestDatabase.fresh()
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        for second in [0.0, 10, 20, 30] { try database.security.recordRateEvent(key: "login:mina", at: start.addingTimeInterval(second)) }
        try database.security.recordRateEvent(key: "login:jun", at: start)
        let seen = try database.security.rateEvents(key: "login:mina", since: start.addingTimeInterval(5))
        #expect(seen.count == 3)
        #expect(seen.oldest == start.addingTimeInterval(10))
        try database.security.resetRateEvents(key: "login:mina")
        #expect(try database.security.rateEvents(key: "login:mina", since: start.addingTimeInterval(-1)).count == 0)
        #expect(try database.security.rateEvents(key: "login:jun", since: start.addingTimeInterval(-1)).count == 1)
    }
}
