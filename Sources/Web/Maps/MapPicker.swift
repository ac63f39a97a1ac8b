import Formats
import Foundation
import Geo
import HTTP

/// A map a form is submitted with by tapping it: an `<input type="image">` over the tiles
/// sends the tap's `x` and `y`, which the server turns into a point, and buttons zoom and pan
/// by submitting the form too, so nothing typed is lost and no script is needed.
///
/// Browsers report `x` and `y` in CSS pixels of the image as shown, so the picker has a
/// fixed size (it fits a 375 px phone) rather than scaling with the page.
struct MapPicker {
    static let size = 288
    /// Zoom levels a tap zooms in by, up to `closest`.
    static let zoomStep = 2.0
    static let closest = 18.0

    /// What the form carries: `map` (the view) and `pick.x`/`pick.y` or `map_move`.
    enum Action: Equatable {
        case pick(Coordinate)
        case view
    }

    let frame: MapFrame

    /// The tap or move in `form`, applied to the view it was made on; nil when the form was
    /// submitted some other way. A tap at (0, 0) is a keyboard's Enter on the map, not a tap.
    static func action(in form: URLEncodedForm) -> (action: Action, picker: MapPicker)? {
        guard let frame = MapFrame(query: form["map"], width: size, height: size) else { return nil }
        if let x = form["pick.x"].flatMap({ Checked.integer($0, in: 0...size) }), let y = form["pick.y"].flatMap({ Checked.integer($0, in: 0...size) }) {
            guard x != 0 || y != 0 else { return (.view, MapPicker(frame: frame)) }
            let point = frame.coordinate(x: Double(x), y: Double(y))
            let zoom = min(frame.zoom + zoomStep, max(closest, frame.zoom))
            return (.pick(point), MapPicker(frame: MapFrame(center: point, zoom: zoom, width: size, height: size)))
        }
        let moved: MapFrame? = switch form["map_move"] {
        case "in": frame.zoomed(1)
        case "out": frame.zoomed(-1)
        case "north": frame.panned(east: 0, south: -0.5)
        case "south": frame.panned(east: 0, south: 0.5)
        case "west": frame.panned(east: -0.5, south: 0)
        case "east": frame.panned(east: 0.5, south: 0)
        default: nil
        }
        return moved.map { (.view, MapPicker(frame: $0)) }
    }

    /// A picker centred on `point`, close enough to see streets.
    /// The view a zoom or pan button asked for, or nil.
    static func moved(in form: URLEncodedForm) -> MapPicker? {
        guard let result = action(in: form), result.action == .view else { return nil }
        return result.picker
    }

    init(around point: Coordinate, zoom: Double) {
        frame = MapFrame(center: point, zoom: zoom, width: Self.size, height: Self.size)
    }

    private init(frame: MapFrame) {
        self.frame = frame
    }

    /// The picker's view with a pin at `pin` (when it is on it) and the prompt `label`; the
    /// tap is sent as `input` (`pick.x`, `pick.y`), moves to `moveAction` when not the form's.
    func view(pin: Coordinate?, label: String, tiles: TileSource, input: String = "pick", moveAction: String? = nil) -> MapPickerView {
        let at = pin.flatMap { frame.contains($0) ? frame.position(of: $0) : nil }
        return MapPickerView(
            query: frame.query, size: Self.size, label: label, input: input, moveAction: moveAction, tiles: frame.tiles.map(MapTile.init),
            pinX: at.map { Checked.pixel($0.x) }, pinY: at.map { Checked.pixel($0.y) }, attribution: tiles.attribution,
            canZoomIn: frame.zoom < Double(WebMercator.zooms.upperBound), canZoomOut: frame.zoom > Double(WebMercator.zooms.lowerBound))
    }
}

/// What `map-picker.mustache` draws inside a form.
struct MapPickerView {
    /// The view, sent back as `map` with the tap.
    let query: String
    let size: Int
    let label: String
    /// The name the tap is sent under.
    let input: String
    /// Where zoom and pan buttons submit to, when not the form's own action.
    let moveAction: String?
    let tiles: [MapTile]
    let pinX: Int?
    let pinY: Int?
    var hasPin: Bool { pinX != nil }
    let attribution: String
    let canZoomIn: Bool
    let canZoomOut: Bool
}
