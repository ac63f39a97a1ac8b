import Foundation

/// The numbers an SVG of a route needs: the track fitted to its bounding box with a margin
/// (TrackUs's "fit the whole route"), start and end, and an elevation profile.
struct RouteDrawing {
    static let width = 600.0, height = 400.0, margin = 24.0
    static let profileHeight = 90.0

    let points: String
    let start: (x: Int, y: Int)
    let end: (x: Int, y: Int)
    let profile: String?

    /// Every number here is finite for a track of checked points (`Track.Point.checked`);
    /// `Checked.pixel` keeps drawing from trapping even if one were not.
    init?(_ track: GPXTrack) {
        guard track.points.count >= 2 else { return nil }
        let meanLatitude = track.points.map(\.latitude).reduce(0, +) / Double(track.points.count)
        let xScale = cos(meanLatitude * .pi / 180)
        // Equirectangular projection: fine at the scale of a run.
        let projected = track.points.map { (x: $0.longitude * xScale, y: -$0.latitude) }
        guard let minX = projected.map(\.x).min(), let maxX = projected.map(\.x).max(),
              let minY = projected.map(\.y).min(), let maxY = projected.map(\.y).max() else { return nil }
        let spanX = max(maxX - minX, 1e-9), spanY = max(maxY - minY, 1e-9)
        let scale = min((Self.width - 2 * Self.margin) / spanX, (Self.height - 2 * Self.margin) / spanY)
        let offsetX = (Self.width - spanX * scale) / 2, offsetY = (Self.height - spanY * scale) / 2
        let xy = projected.map { (x: Checked.pixel(($0.x - minX) * scale + offsetX), y: Checked.pixel(($0.y - minY) * scale + offsetY)) }
        points = xy.map { "\($0.x),\($0.y)" }.joined(separator: " ")
        start = xy[0]
        end = xy[xy.count - 1]

        let elevations = track.points.map(\.elevation)
        if elevations.allSatisfy({ $0 != nil }), let low = elevations.compactMap({ $0 }).min(), let high = elevations.compactMap({ $0 }).max() {
            var covered = [0.0]
            for (a, b) in zip(track.points, track.points.dropFirst()) { covered.append((covered.last ?? 0) + GPXTrack.distance(a, b)) }
            let total = max(covered.last ?? 1, 1), rise = max(high - low, 1)
            profile = zip(covered, elevations.compactMap { $0 }).map { distance, elevation in
                "\(Checked.pixel(distance / total * Self.width)),\(Checked.pixel(Self.profileHeight - 4 - (elevation - low) / rise * (Self.profileHeight - 8)))"
            }.joined(separator: " ")
        } else {
            profile = nil
        }
    }

    var view: RouteView {
        RouteView(points: points, width: Int(Self.width), height: Int(Self.height), startX: start.x, startY: start.y,
                  endX: end.x, endY: end.y, profile: profile, profileHeight: Int(Self.profileHeight))
    }
}

/// What the route's SVG template draws.
struct RouteView {
    let points: String
    let width: Int
    let height: Int
    let startX: Int
    let startY: Int
    let endX: Int
    let endY: Int
    /// The elevation profile's points, when the track has elevations.
    let profile: String?
    let profileHeight: Int
}
