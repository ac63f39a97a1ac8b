import Foundation
import Testing
@testable import Formats

@Suite struct DaylightTests {
    /// Sunrise and sunset as almanacs print them for these days, local time, to the minute
    /// (cross-checked with another NOAA implementation, the astral package).
    @Test(arguments: [
        ("Asia/Seoul", 37.5665, 126.9780, "2026-06-21", "05:11", "19:57"),
        ("Asia/Seoul", 37.5665, 126.9780, "2026-12-22", "07:43", "17:17"),
        ("Asia/Seoul", 37.5665, 126.9780, "2026-03-20", "06:36", "18:43"),
        ("Europe/London", 51.5074, -0.1278, "2026-06-21", "04:43", "21:21"),
        ("Europe/London", 51.5074, -0.1278, "2026-12-21", "08:04", "15:53"),
    ])
    func sunriseAndSunsetAreWithinTwoMinutesOfPublishedTimes(
        zone: String, latitude: Double, longitude: Double, day: String, sunrise: String, sunset: String
    ) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        let noon = try #require(Checked.localDateTime(day + "T12:00", in: timeZone))
        guard case .risesAndSets(let rise, let set) = Daylight.sun(around: noon, latitude: latitude, longitude: longitude) else {
            Issue.record("no sunrise")
            return
        }
        let expectedRise = try #require(Checked.localDateTime(day + "T" + sunrise, in: timeZone))
        let expectedSet = try #require(Checked.localDateTime(day + "T" + sunset, in: timeZone))
        #expect(abs(rise.timeIntervalSince(expectedRise)) <= 120)
        #expect(abs(set.timeIntervalSince(expectedSet)) <= 120)
    }

    @Test func runsInTheDarkAreWarnedAndDaylightRunsAreNot() throws {
        let seoul = try #require(TimeZone(identifier: "Asia/Seoul"))
        let at = { (text: String) in try #require(Checked.localDateTime(text, in: seoul)) }
        let (lat, lon) = (37.5283, 126.9327)
        // 06:00 in December is before the 07:43 sunrise; 16:30–18:00 ends after the 17:17 sunset.
        guard case .beforeSunrise = Daylight.warning(start: try at("2026-12-22T06:00"), end: try at("2026-12-22T07:30"), latitude: lat, longitude: lon) else {
            Issue.record("no warning before sunrise")
            return
        }
        guard case .afterSunset = Daylight.warning(start: try at("2026-12-22T16:30"), end: try at("2026-12-22T18:00"), latitude: lat, longitude: lon) else {
            Issue.record("no warning after sunset")
            return
        }
        #expect(Daylight.warning(start: try at("2026-12-22T09:00"), end: try at("2026-12-22T10:30"), latitude: lat, longitude: lon) == nil)
        // No coordinates, no warning; the poles and nonsense do not trap.
        #expect(Daylight.warning(start: try at("2026-12-22T06:00"), end: try at("2026-12-22T07:00"), latitude: nil, longitude: nil) == nil)
        #expect(Daylight.sun(around: try at("2026-12-22T12:00"), latitude: 78.22, longitude: 15.65) == .polarNight)
        #expect(Daylight.sun(around: try at("2026-06-21T12:00"), latitude: 78.22, longitude: 15.65) == .midnightSun)
        #expect(Daylight.sun(around: Date(timeIntervalSince1970: .infinity), latitude: 37, longitude: 127) == nil)
        #expect(Daylight.sun(around: Date(), latitude: .nan, longitude: 127) == nil)
        #expect(Daylight.sun(around: Date(), latitude: 90, longitude: 180) != nil)
    }
}
