import Foundation

/// A rectangle of `width` × `height` pixels of the Web Mercator world at `zoom`, centred on
/// `center`: which tiles cover it and where, and where any point falls in it. Zooms may be
/// fractional (a route fitted to the box); tiles then come from the nearest level, scaled.
public struct MapFrame: Sendable, Equatable {
    public let center: Coordinate
    public let zoom: Double
    public let width: Int
    public let height: Int

    public init(center: Coordinate, zoom: Double, width: Int, height: Int) {
        self.center = center
        self.zoom = zoom.isFinite ? min(max(zoom, Double(WebMercator.zooms.lowerBound)), Double(WebMercator.zooms.upperBound)) : 0
        self.width = max(1, min(width, 4096))
        self.height = max(1, min(height, 4096))
    }

    /// The largest zoom (up to `maximumZoom`) at which every point fits inside the frame less
    /// `padding` on each side, centred on their bounds. nil without points.
    public init?(fitting points: [Coordinate], width: Int, height: Int, padding: Double, maximumZoom: Double, integral: Bool = false) {
        guard let first = points.first else { return nil }
        // The bounds at zoom 0; at zoom z every span is 2^z times as wide. Longitudes are taken
        // around the first point, so a route across the antimeridian stays one piece.
        let origin = WebMercator.pixel(first, zoom: 0)
        let projected = points.map { point -> (x: Double, y: Double) in
            var pixel = WebMercator.pixel(point, zoom: 0)
            if pixel.x - origin.x > 128 { pixel.x -= 256 }
            if pixel.x - origin.x < -128 { pixel.x += 256 }
            return pixel
        }
        let xs = projected.map(\.x), ys = projected.map(\.y)
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return nil }
        let usableWidth = max(1, Double(width) - 2 * padding), usableHeight = max(1, Double(height) - 2 * padding)
        let spanX = max(maxX - minX, 1e-12), spanY = max(maxY - minY, 1e-12)
        var zoom = min(log2(usableWidth / spanX), log2(usableHeight / spanY), maximumZoom)
        if integral { zoom = zoom.rounded(.down) }
        let center = WebMercator.coordinate(x: (minX + maxX) / 2, y: (minY + maxY) / 2, zoom: 0)
        self.init(center: center, zoom: zoom, width: width, height: height)
    }

    /// The world pixel of the frame's top-left corner.
    private var origin: (x: Double, y: Double) {
        let middle = WebMercator.pixel(center, zoom: zoom)
        return (middle.x - Double(width) / 2, middle.y - Double(height) / 2)
    }

    /// Where `point` falls in the frame, in pixels from its top-left corner (possibly outside
    /// it). Across the antimeridian the copy of the world nearest the centre is used.
    public func position(of point: Coordinate) -> (x: Double, y: Double) {
        let size = WebMercator.worldSize(zoom)
        var pixel = WebMercator.pixel(point, zoom: zoom)
        let middle = WebMercator.pixel(center, zoom: zoom)
        if pixel.x - middle.x > size / 2 { pixel.x -= size }
        if pixel.x - middle.x < -size / 2 { pixel.x += size }
        return (pixel.x - origin.x, pixel.y - origin.y)
    }

    public func contains(_ point: Coordinate) -> Bool {
        let at = position(of: point)
        return (0...Double(width)).contains(at.x) && (0...Double(height)).contains(at.y)
    }

    /// The point under frame pixel (x, y): what a tap on the map means.
    public func coordinate(x: Double, y: Double) -> Coordinate {
        WebMercator.coordinate(x: origin.x + x, y: origin.y + y, zoom: zoom)
    }

    /// Metres on the ground per pixel at the centre.
    public var metersPerPixel: Double { WebMercator.metersPerPixel(latitude: center.latitude, zoom: zoom) }

    /// One tile of the map: its address and where it is drawn.
    public struct Tile: Sendable, Equatable {
        public let z: Int, x: Int, y: Int
        /// Top-left corner and side in frame pixels (256 at an integral zoom).
        public let left: Double, top: Double, size: Double
    }

    /// The tiles that cover the frame, at the level nearest its zoom: columns wrap around the
    /// world, rows beyond the poles are left out (the frame's background shows there).
    public var tiles: [Tile] {
        let level = Self.whole(zoom.rounded())
        let scale = pow(2, zoom - Double(level))
        let size = WebMercator.tileSize * scale
        let corner = origin
        let count = 1 << level
        let firstColumn = Self.whole((corner.x / size).rounded(.down)), lastColumn = Self.whole(((corner.x + Double(width)) / size).rounded(.up)) - 1
        let firstRow = max(0, Self.whole((corner.y / size).rounded(.down))), lastRow = min(count - 1, Self.whole(((corner.y + Double(height)) / size).rounded(.up)) - 1)
        guard firstRow <= lastRow, firstColumn <= lastColumn else { return [] }
        var tiles: [Tile] = []
        for row in firstRow...lastRow {
            for column in firstColumn...lastColumn {
                let wrapped = ((column % count) + count) % count
                tiles.append(Tile(z: level, x: wrapped, y: row,
                                  left: Double(column) * size - corner.x, top: Double(row) * size - corner.y, size: size))
            }
        }
        return tiles
    }

    /// A tile index: within ±2^30 by construction (zoom ≤ 19); clamped so that it cannot trap.
    private static func whole(_ value: Double) -> Int {
        Int(exactly: value.isFinite ? min(max(value, -0x4000_0000), 0x4000_0000) : 0) ?? 0
    }

    /// The same frame `levels` zooms in (positive) or out, at whole levels.
    public func zoomed(_ levels: Int) -> MapFrame {
        let next = levels > 0 ? zoom.rounded(.down) + Double(levels) : zoom.rounded(.up) + Double(levels)
        return MapFrame(center: center, zoom: next, width: width, height: height)
    }

    /// The frame moved by a fraction of its size (−1…1) east and south.
    public func panned(east: Double, south: Double) -> MapFrame {
        let middle = WebMercator.pixel(center, zoom: zoom)
        let moved = WebMercator.coordinate(x: middle.x + east * Double(width), y: middle.y + south * Double(height), zoom: zoom)
        return MapFrame(center: moved, zoom: zoom, width: width, height: height)
    }
}
