import Foundation

/// A run's GPS track as stored in `records.track`: little-endian Float32 latitude, longitude
/// and elevation per point (NaN for a missing elevation).
///
/// Decoding checks every value, so a row written before these checks existed (or by hand)
/// cannot put NaN or infinity in front of code that draws the route.
public struct Track: Equatable, Sendable {
    public struct Point: Equatable, Sendable {
        public var latitude: Double
        public var longitude: Double
        public var elevation: Double?

        public init(latitude: Double, longitude: Double, elevation: Double?) {
            self.latitude = latitude
            self.longitude = longitude
            self.elevation = elevation
        }

        /// Lowest and highest elevation believed, in metres: below the Dead Sea shore or above
        /// Everest is a GPS error, not a run.
        public static let elevations = -500.0...9_000.0

        /// The point with anything out of range dropped: nil if its position is not a place
        /// on Earth, no elevation if that is not believable.
        public func checked() -> Point? {
            guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
            var point = self
            if let elevation, !(elevation.isFinite && Self.elevations.contains(elevation)) { point.elevation = nil }
            return point
        }
    }

    public var points: [Point]

    public init(points: [Point]) {
        self.points = points
    }

    public var encoded: Data {
        var data = Data(capacity: points.count * 12)
        for point in points {
            for value in [Float(point.latitude), Float(point.longitude), point.elevation.map(Float.init) ?? .nan] {
                withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) }
            }
        }
        return data
    }

    /// The points of a stored track, skipping any that are not a place on Earth; a trailing
    /// partial point is ignored.
    public init(encoded data: Data) {
        let bytes = [UInt8](data)
        func float(at offset: Int) -> Double {
            let bits = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
            return Double(Float(bitPattern: bits))
        }
        var points: [Point] = []
        points.reserveCapacity(bytes.count / 12)
        var offset = 0
        while offset + 12 <= bytes.count {
            let elevation = float(at: offset + 8)
            let point = Point(latitude: float(at: offset), longitude: float(at: offset + 4), elevation: elevation.isNaN ? nil : elevation)
            if let checked = point.checked() { points.append(checked) }
            offset += 12
        }
        self.points = points
    }
}
