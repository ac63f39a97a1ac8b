import Foundation

/// The projection of web map tiles (EPSG:3857): at zoom z the world is a square of
/// 256 · 2^z pixels, x growing east from the antimeridian and y growing south from 85.05° N.
public enum WebMercator {
    public static let tileSize = 256.0
    /// Beyond this latitude the square ends; points further north or south sit on its edge.
    public static let maximumLatitude = 85.051_128_78
    public static let zooms = 0...19

    /// The side of the world in pixels at `zoom` (fractional zooms scale between levels).
    public static func worldSize(_ zoom: Double) -> Double { tileSize * pow(2, zoom) }

    public static func pixel(_ point: Coordinate, zoom: Double) -> (x: Double, y: Double) {
        let size = worldSize(zoom)
        let latitude = min(max(point.latitude, -maximumLatitude), maximumLatitude) * .pi / 180
        let x = (point.longitude + 180) / 360 * size
        let y = (1 - log(tan(latitude) + 1 / cos(latitude)) / .pi) / 2 * size
        return (x, y)
    }

    /// The point at world pixel (x, y); x wraps around the world, y stays on it.
    public static func coordinate(x: Double, y: Double, zoom: Double) -> Coordinate {
        let size = worldSize(zoom)
        var longitude = (x / size * 360).truncatingRemainder(dividingBy: 360) - 180
        if longitude < -180 { longitude += 360 }
        let n = Double.pi * (1 - 2 * min(max(y, 0), size) / size)
        let latitude = atan(sinh(n)) * 180 / .pi
        return Coordinate(clamping: latitude, longitude)
    }

    /// Metres on the ground per pixel at `latitude` and `zoom`.
    public static func metersPerPixel(latitude: Double, zoom: Double) -> Double {
        2 * .pi * Coordinate.earthRadius * cos(latitude * .pi / 180) / worldSize(zoom)
    }
}
