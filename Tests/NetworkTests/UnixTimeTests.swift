import Foundation
import Testing
@testable import Network

/// The clock a JWT or a webhook signature is written with: whole seconds, or nil for a time
/// that is no number in range, never a trap.
struct UnixTimeTests {
    @Test func wholeSecondsOrNothing() {
        #expect(UnixTime.seconds(Date(timeIntervalSince1970: 1_795_000_000.9)) == 1_795_000_000)
        #expect(UnixTime.seconds(Date(timeIntervalSince1970: -0.5)) == -1)
        for hostile in [Double.infinity, -.infinity, .nan, 1e300, -1e300, Double.greatestFiniteMagnitude] {
            #expect(UnixTime.seconds(Date(timeIntervalSince1970: hostile)) == nil, "\(hostile)")
        }
    }
}
