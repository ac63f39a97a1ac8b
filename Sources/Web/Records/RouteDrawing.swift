import Formats
import Foundation
import Geo

/// The numbers a map of a route needs: the track fitted to the map with a margin (TrackUs's
/// "fit the whole route"), or in the view a zoom or pan link asked for; start and end, a marker
/// at every kilometre (or mile), and an elevation profile with its axis.
struct RouteDrawing {
    static let width = 600, height = 400, margin = 24.0
    /// The map's size on a phone's column and on a wide one.
    static let sizes: [MapPicture.Screen: (width: Int, height: Int)] = [.phone: (320, 240), .wide: (width, height)]
    static let profileHeight = 90.0
    /// A profile spans at least this many metres, so that ±5 m does not look like mountains.
    static let minimumRise = 40.0

    /// The unit markers and the scale bar count in.
    struct Unit {
        let meters: Double
        let label: String
        static let kilometre = Unit(meters: 1000, label: "km")
        static let mile = Unit(meters: 1609.344, label: "mi")
    }

    let frame: MapFrame
    let route: MapRoute
    let profile: ElevationProfile?

    /// Every number here is finite for a track of checked points (`Track.Point.checked`);
    /// `Checked.pixel` keeps drawing from trapping even if one were not.
    init?(_ track: GPXTrack, unit: Unit = .kilometre, size: (width: Int, height: Int) = (width, height), view: MapFrame? = nil) {
        let coordinates = track.points.compactMap { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
        guard track.points.count >= 2, coordinates.count == track.points.count,
              let frame = view ?? MapFrame(fitting: coordinates, width: size.width, height: size.height, padding: Self.margin, maximumZoom: 18)
        else { return nil }
        self.frame = frame
        let exact = coordinates.map(frame.position)
        let xy = exact.map { (x: Checked.pixel($0.x), y: Checked.pixel($0.y)) }
        var covered = [0.0]
        for (a, b) in zip(track.points, track.points.dropFirst()) { covered.append((covered.last ?? 0) + GPXTrack.distance(a, b)) }
        route = MapRoute(points: xy.map { "\($0.x),\($0.y)" }.joined(separator: " "), start: MapPoint(x: xy[0].x, y: xy[0].y),
                         end: MapPoint(x: xy[xy.count - 1].x, y: xy[xy.count - 1].y), markers: Self.markers(along: exact, covered: covered, unit: unit))
        profile = ElevationProfile(track.points.map(\.elevation), covered: covered, total: covered.last ?? 0, unit: unit)
    }

    /// A numbered marker where each whole unit is reached (every fifth past 20 units).
    private static func markers(along xy: [(x: Double, y: Double)], covered: [Double], unit: Unit) -> [DistanceMarker] {
        guard let total = covered.last, total.isFinite, total >= unit.meters else { return [] }
        let step = total / unit.meters > 20 ? 5.0 : 1.0
        var markers: [DistanceMarker] = []
        var next = step
        var index = 1
        while next * unit.meters <= total, index < covered.count, markers.count < 60 {
            let target = next * unit.meters
            while index < covered.count - 1, covered[index] < target { index += 1 }
            let before = covered[index - 1], after = covered[index]
            let t = after > before ? (target - before) / (after - before) : 0
            let a = xy[index - 1], b = xy[index]
            markers.append(DistanceMarker(x: Checked.pixel(a.x + (b.x - a.x) * t), y: Checked.pixel(a.y + (b.y - a.y) * t),
                                          label: String(Checked.pixel(next))))
            next += step
        }
        return markers
    }
}

struct DistanceMarker {
    let x: Int
    let y: Int
    let label: String
}

/// A bar of a round length ("500 m", "2 km") of at most 140 pixels, at the bottom left.
struct ScaleBar {
    let length: Int
    let label: String
    let x: Int = 16
    let y: Int
    var endX: Int { x + length }
    var labelY: Int { y - 8 }

    /// A bar at the bottom left of a map `height` pixels high.
    init(metersPerPixel: Double, unit: RouteDrawing.Unit, height: Int) {
        y = height - 16
        let candidates: [(meters: Double, label: String)] = unit.label == "km"
            ? [(50, "50 m"), (100, "100 m"), (200, "200 m"), (500, "500 m"), (1000, "1 km"), (2000, "2 km"), (5000, "5 km"),
               (10_000, "10 km"), (20_000, "20 km"), (50_000, "50 km"), (100_000, "100 km")]
            : [(0.1, "0.1 mi"), (0.25, "0.25 mi"), (0.5, "0.5 mi"), (1, "1 mi"), (2, "2 mi"), (5, "5 mi"), (10, "10 mi"),
               (20, "20 mi"), (50, "50 mi")].map { ($0.0 * unit.meters, $0.1) }
        let fitting = candidates.last { $0.meters / metersPerPixel <= 140 } ?? candidates[0]
        length = max(1, min(Checked.pixel(fitting.meters / metersPerPixel), 560))
        label = fitting.label
    }
}

/// Elevation along the distance, drawn on at least `minimumRise` metres, with the lowest and
/// highest points and the distance written on the axes.
struct ElevationProfile {
    let points: String
    let high: String
    let low: String
    let distance: String

    init?(_ elevations: [Double?], covered: [Double], total: Double, unit: RouteDrawing.Unit) {
        let known = elevations.compactMap { $0 }
        guard known.count == elevations.count, let low = known.min(), let high = known.max(), total > 0 else { return nil }
        let rise = max(high - low, RouteDrawing.minimumRise)
        // The line sits in the middle of a range wider than the track's.
        let floor = low - (rise - (high - low)) / 2
        let plotTop = 6.0, plotHeight = RouteDrawing.profileHeight - 22
        points = zip(covered, known).map { distance, elevation in
            "\(Checked.pixel(distance / total * Double(RouteDrawing.width))),\(Checked.pixel(plotTop + plotHeight - (elevation - floor) / rise * plotHeight))"
        }.joined(separator: " ")
        self.high = "\(Checked.rounded(high, in: -1_000...10_000) ?? 0) m"
        self.low = "\(Checked.rounded(low, in: -1_000...10_000) ?? 0) m"
        distance = String(format: "%.1f %@", total / unit.meters, unit.label)
    }
}
