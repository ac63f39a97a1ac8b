import Foundation

/// Sunrise and sunset at a place, by NOAA's solar calculator (the equations of its
/// spreadsheet, after Meeus, "Astronomical Algorithms"): good to a minute or so away from the
/// poles. Used to tell runners to bring a light.
public enum Daylight {
    /// The sun on one day at one place.
    public enum Sun: Equatable {
        case risesAndSets(sunrise: Date, sunset: Date)
        /// The sun stays below the horizon all day.
        case polarNight
        /// The sun stays above it.
        case midnightSun
    }

    /// The sun on the local day of `moment` at the place (the day is the place's solar day,
    /// from its longitude, so the server's time zone does not matter). Nil for coordinates or
    /// moments that are not finite or out of range.
    public static func sun(around moment: Date, latitude: Double, longitude: Double) -> Sun? {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        // Days since 2000-01-01 12:00 UTC (Julian day 2451545), at the place's local noon.
        let solarSeconds = moment.timeIntervalSince1970 + longitude / 360 * 86_400
        guard solarSeconds.isFinite, abs(solarSeconds) < 1e11 else { return nil }
        let localDay = (solarSeconds / 86_400).rounded(.down)
        let noonUTC = localDay * 86_400 + 43_200 - longitude / 360 * 86_400
        let t = (noonUTC / 86_400 + 2_440_587.5 - 2_451_545) / 36_525

        let meanLongitude = (280.46646 + t * (36_000.76983 + t * 0.0003032)).truncatingRemainder(dividingBy: 360)
        let meanAnomaly = 357.52911 + t * (35_999.05029 - 0.0001537 * t)
        let eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
        let center = sin(radians(meanAnomaly)) * (1.914602 - t * (0.004817 + 0.000014 * t))
            + sin(radians(2 * meanAnomaly)) * (0.019993 - 0.000101 * t) + sin(radians(3 * meanAnomaly)) * 0.000289
        let omega = 125.04 - 1_934.136 * t
        let apparentLongitude = meanLongitude + center - 0.00569 - 0.00478 * sin(radians(omega))
        let meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
        let obliquity = meanObliquity + 0.00256 * cos(radians(omega))
        let declination = asin(sin(radians(obliquity)) * sin(radians(apparentLongitude)))
        let y = pow(tan(radians(obliquity / 2)), 2)
        let l0 = radians(meanLongitude), m = radians(meanAnomaly)
        let equationOfTime = 4 * degrees(y * sin(2 * l0) - 2 * eccentricity * sin(m) + 4 * eccentricity * y * sin(m) * cos(2 * l0)
            - 0.5 * y * y * sin(4 * l0) - 1.25 * eccentricity * eccentricity * sin(2 * m))

        // The sun's centre 0.833° below the horizon: refraction and the sun's radius.
        let cosHourAngle = cos(radians(90.833)) / (cos(radians(latitude)) * cos(declination)) - tan(radians(latitude)) * tan(declination)
        guard cosHourAngle.isFinite else { return nil }
        if cosHourAngle > 1 { return .polarNight }
        if cosHourAngle < -1 { return .midnightSun }
        let hourAngle = degrees(acos(cosHourAngle))
        // Minutes after 00:00 UTC of the place's date.
        let solarNoon = 720 - 4 * longitude - equationOfTime
        let dayStart = Date(timeIntervalSince1970: localDay * 86_400)
        return .risesAndSets(sunrise: dayStart.addingTimeInterval((solarNoon - 4 * hourAngle) * 60),
                             sunset: dayStart.addingTimeInterval((solarNoon + 4 * hourAngle) * 60))
    }

    /// What a runner should know about the light: nil when the whole run is in daylight (or
    /// the place is unknown).
    public enum Warning: Equatable {
        case beforeSunrise(Date)
        case afterSunset(Date)
        case dark
    }

    public static func warning(start: Date, end: Date, latitude: Double?, longitude: Double?) -> Warning? {
        guard let latitude, let longitude, let sun = sun(around: start, latitude: latitude, longitude: longitude) else { return nil }
        switch sun {
        case .polarNight: return .dark
        case .midnightSun: return nil
        case .risesAndSets(let sunrise, let sunset):
            if start < sunrise { return .beforeSunrise(sunrise) }
            if end > sunset { return .afterSunset(sunset) }
            return nil
        }
    }

    private static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    private static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
}
