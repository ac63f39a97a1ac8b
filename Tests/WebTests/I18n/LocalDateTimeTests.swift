import Formats
import Foundation
import Testing
@testable import Web

@Suite struct LocalDateTimeTests {
    @Test func aMomentIsWrittenAsTheWallClockOfItsTimeZone() throws {
        let seoul = try #require(TimeZone(identifier: "Asia/Seoul"))
        let utc = try #require(TimeZone(identifier: "UTC"))
        let moment = Date(timeIntervalSince1970: 1_795_809_600)  // 2026-11-27 20:00 UTC
        #expect(LocalDateTime.text(moment, utc) == "2026-11-27T20:00")
        #expect(LocalDateTime.text(moment, seoul) == "2026-11-28T05:00")
    }

    @Test func whatAFormSendsBackReadsAsTheSameMoment() throws {
        // What the form shows is what `<input type="datetime-local">` sends back on submit.
        let seoul = try #require(TimeZone(identifier: "Asia/Seoul"))
        let moment = Date(timeIntervalSince1970: 1_795_809_600)
        #expect(Checked.localDateTime(LocalDateTime.text(moment, seoul), in: seoul) == moment)
    }
}
