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

    /// The distance in metres along the WGS 84 ellipsoid (Vincenty's inverse formula, to
    /// about a millimetre): what a run's length is summed from, where the sphere would be up
    /// to 0.5% off. Points nearly opposite each other, where the iteration may not settle,
    /// get the sphere's answer.
    public func geodesicDistance(to other: Coordinate) -> Double {
        let a = 6_378_137.0, f = 1 / 298.257223563, b = a * (1 - f)
        let radians = Double.pi / 180
        let L = (other.longitude - longitude) * radians
        let U1 = atan((1 - f) * tan(latitude * radians)), U2 = atan((1 - f) * tan(other.latitude * radians))
        let sinU1 = sin(U1), cosU1 = cos(U1), sinU2 = sin(U2), cosU2 = cos(U2)
        var lambda = L
        for _ in 0..<100 {
            let sinLambda = sin(lambda), cosLambda = cos(lambda)
            let sinSigma = ((cosU2 * sinLambda) * (cosU2 * sinLambda)
                + (cosU1 * sinU2 - sinU1 * cosU2 * cosLambda) * (cosU1 * sinU2 - sinU1 * cosU2 * cosLambda)).squareRoot()
            guard sinSigma > 0 else { return 0 }
            let cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            let sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            let cosSqAlpha = 1 - sinAlpha * sinAlpha
            // On the equator cos²α is 0 and the term that divides by it is 0 too.
            let cos2SigmaM = cosSqAlpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cosSqAlpha : 0
            let C = f / 16 * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha))
            let previous = lambda
            lambda = L + (1 - C) * f * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) < 1e-12 {
                let uSq = cosSqAlpha * (a * a - b * b) / (b * b)
                let A = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
                let B = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))
                let deltaSigma = B * sinSigma * (cos2SigmaM + B / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
                    - B / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
                let meters = b * A * (sigma - deltaSigma)
                return meters.isFinite ? meters : distance(to: other)
            }
        }
        return distance(to: other)
    }

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
