import Foundation
import Testing
@testable import Web

@Suite struct ICalendarTests {
    @Test func textIsEscapedAsRFC5545Asks() {
        #expect(ICalendar.escape(#"a\b;c,d"#) == #"a\\b\;c\,d"#)
        #expect(ICalendar.escape("one\r\ntwo\nthree") == #"one\ntwo\nthree"#)
    }

    @Test func longLinesFoldAt75OctetsWithoutSplittingACharacter() {
        // Given a line of 3-octet Korean letters, far longer than a line may be
        let line = "SUMMARY:" + String(repeating: "한강", count: 60)
        let folded = ICalendar.fold(line)
        let lines = folded.components(separatedBy: "\r\n")
        // Then no line is over 75 octets, each continuation starts with a space, and
        // unfolding gives the line back
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        #expect(lines.first! + lines.dropFirst().map { String($0.dropFirst()) }.joined() == line)
        // A short line is left as it is
        #expect(ICalendar.fold("VERSION:2.0") == "VERSION:2.0")
    }

    @Test func timesAreWrittenInUTC() {
        #expect(ICalendar.stamp(Date(timeIntervalSince1970: 1_795_809_600)) == "20261127T200000Z")
    }
}
