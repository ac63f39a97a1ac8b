import Formats
import Foundation
import Geo

/// What `map.mustache` draws: a map for phones and one for wider screens (CSS shows one),
/// each an SVG with its tiles as `<img>`s in `<foreignObject>`s and on top of them, in the same
/// projection, a route, pins and a scale bar; then the tile credit and links to zoom and pan.
/// Tiles are placed by SVG attributes because the pages' CSP allows no inline style, and load
/// lazily, so a browser fetches only the tiles of the map it shows. Each map is drawn at about
/// the size it is shown, so tiles stay sharp and their labels readable on a phone.
struct MapPicture {
    /// What a screen reader hears for the whole picture.
    let label: String
    let views: [MapView]
    /// The tile server's credit; nil when the map is drawn without tiles.
    let attribution: String?
    let controls: MapControls?

    /// The sizes maps are drawn at: a phone's column, and a wide column.
    enum Screen: String, CaseIterable {
        case phone, wide
    }

    /// `frames` for each screen, and what each holds on top of its tiles.
    init(_ frames: [(Screen, MapFrame)], label: String, tiles source: TileSource?, unit: RouteDrawing.Unit = .kilometre,
         controls: MapControls? = nil, draw: (MapFrame) -> (route: MapRoute?, pins: [MapPin]) = { _ in (nil, []) }) {
        self.label = label
        views = frames.map { screen, frame in
            let overlay = draw(frame)
            return MapView(screen: screen.rawValue, width: frame.width, height: frame.height,
                           tiles: source == nil ? [] : frame.tiles.map(MapTile.init), route: overlay.route, pins: overlay.pins,
                           scale: ScaleBar(metersPerPixel: frame.metersPerPixel, unit: unit, height: frame.height))
        }
        attribution = source?.attribution
        self.controls = controls
    }
}

/// One screen's map.
struct MapView {
    /// `phone` or `wide`: which screens show it.
    let screen: String
    let width: Int
    let height: Int
    let tiles: [MapTile]
    let route: MapRoute?
    let pins: [MapPin]
    let scale: ScaleBar
    var hasTiles: Bool { !tiles.isEmpty }
}

struct MapTile {
    let href: String
    let x: String
    let y: String
    let size: String

    init(_ tile: MapFrame.Tile) {
        href = Paths.tile(z: tile.z, x: tile.x, y: tile.y)
        // A hair of overlap hides the seams a browser draws between scaled images.
        x = Self.number(tile.left)
        y = Self.number(tile.top)
        size = Self.number(tile.size + 0.5)
    }

    private static func number(_ value: Double) -> String {
        String(format: "%.1f", value.isFinite ? min(max(value, -100_000), 100_000) : 0)
    }
}

/// A place on the map, with its name beside it (when few share the map) and a link when it
/// has one.
struct MapPin {
    let x: Int
    let y: Int
    /// The full name, for screen readers and as a tooltip.
    let title: String
    /// The name written beside the pin, shortened.
    let label: String?
    let url: String?
    /// How the name lines up with the pin above it: `middle`, or `start`/`end` near an edge.
    let labelAnchor: String
    /// The point a near search measures from, drawn as a target rather than a pin.
    var isCenter: Bool = false
    /// A near search's radius around the centre, in pixels.
    var radius: Int? = nil
}

/// A route drawn on a map: the line, its start and end, a marker at each kilometre.
struct MapRoute {
    let points: String
    let start: MapPoint
    let end: MapPoint
    let markers: [DistanceMarker]
}

/// A point on a map picture, in pixels from its top left corner.
struct MapPoint {
    let x: Int
    let y: Int
}

/// Plain links that show the same map zoomed or moved; nil where the map cannot go further.
struct MapControls {
    let zoomIn: String?
    let zoomOut: String?
    let north: String
    let south: String
    let west: String
    let east: String

    /// Links for `frame`, each made by `link` from the frame it would show.
    init(_ frame: MapFrame, link: (MapFrame) -> String) {
        zoomIn = frame.zoom < Double(WebMercator.zooms.upperBound) ? link(frame.zoomed(1)) : nil
        zoomOut = frame.zoom > Double(WebMercator.zooms.lowerBound) ? link(frame.zoomed(-1)) : nil
        north = link(frame.panned(east: 0, south: -0.5))
        south = link(frame.panned(east: 0, south: 0.5))
        west = link(frame.panned(east: -0.5, south: 0))
        east = link(frame.panned(east: 0.5, south: 0))
    }
}

extension MapFrame {
    /// Parses `?map=16/37.52830/126.93270` (zoom/latitude/longitude), as zoom and pan links
    /// carry a view; nil for anything else.
    init?(query: String?, width: Int, height: Int) {
        guard let query, query.utf8.count <= 48 else { return nil }
        let parts = query.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let zoom = Checked.integer(parts[0], in: WebMercator.zooms),
              let latitude = Checked.decimal(parts[1], in: -90...90), let longitude = Checked.decimal(parts[2], in: -180...180),
              let center = Coordinate(latitude: latitude, longitude: longitude) else { return nil }
        self.init(center: center, zoom: Double(zoom), width: width, height: height)
    }

    /// The value of `?map=` for this view (whole zoom levels only).
    var query: String {
        String(format: "%d/%.5f/%.5f", Checked.rounded(zoom, in: WebMercator.zooms) ?? 0, center.latitude, center.longitude)
    }
}
