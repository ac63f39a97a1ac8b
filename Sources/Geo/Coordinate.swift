import Foundation

/// A point on the Earth in degrees (WGS 84), always finite and in range.
public struct Coordinate: Sendable, Equatable, Hashable {
    public let latitude: Double
    public let longitude: Double

    /// nil unless both are finite, latitude in −90…90 and longitude in −180…180.
    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The nearest point in range; 0 for what is not a number.
    public init(clamping latitude: Double, _ longitude: Double) {
        self.latitude = latitude.isFinite ? min(max(latitude, -90), 90) : 0
        self.longitude = longitude.isFinite ? min(max(longitude, -180), 180) : 0
    }

    /// Parses "37.5283,126.9327" (as in `?near=`): two decimal numbers, nothing else.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.utf8.count <= 24 }),
              let latitude = Double(parts[0].trimmingCharacters(in: .whitespaces)),
              let longitude = Double(parts[1].trimmingCharacters(in: .whitespaces)) else { return nil }
        self.init(latitude: latitude, longitude: longitude)
    }

    /// Six decimals (11 cm), as links and forms carry it.
    public var text: String { String(format: "%.6f,%.6f", latitude, longitude) }

    /// The great-circle distance in metres (haversine on the mean Earth radius, IUGG:
    /// within 0.5% of the ellipsoid's geodesic, under 15 m on a 3 km search radius).
    public func distance(to other: Coordinate) -> Double {
        let radians = Double.pi / 180
        let dLatitude = (other.latitude - latitude) * radians, dLongitude = (other.longitude - longitude) * radians
        let a = sin(dLatitude / 2) * sin(dLatitude / 2)
            + cos(latitude * radians) * cos(other.latitude * radians) * sin(dLongitude / 2) * sin(dLongitude / 2)
        return 2 * Self.earthRadius * atan2(a.squareRoot(), max(0, 1 - a).squareRoot())
    }

    public static let earthRadius = 6_371_008.8

    /// The latitude and longitude ranges that hold every point within `meters` of this one, for
    /// a query on indexed columns; the exact distance is checked afterwards. Near a pole or the
    /// antimeridian the box widens to the whole range rather than wrapping.
    public func boundingBox(meters: Double) -> (latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>) {
        // A hair wider than exact, so that rounding never drops a point on the circle itself.
        let degrees = meters / Self.earthRadius * 180 / .pi * (1 + 1e-9) + 1e-9
        let south = latitude - degrees, north = latitude + degrees
        guard south > -90, north < 90 else { return (max(-90, south)...min(90, north), -180...180) }
        let widest = max(abs(south), abs(north)) * .pi / 180
        let across = degrees / cos(widest)
        let west = longitude - across, east = longitude + across
        guard west >= -180, east <= 180 else { return (south...north, -180...180) }
        return (south...north, west...east)
    }
}
