import Foundation
import Geo
import Storage

extension App {
    static let meetupMapSize = (width: 600, height: 320)

    /// A meetup's meeting point on the tiles, or in the view `?map=` asks for.
    func meetupMap(_ meetup: Meetup, view: String?, _ language: Language) -> MapPicture? {
        guard let tiles = configuration.tiles, let id = meetup.id,
              let latitude = meetup.latitude, let longitude = meetup.longitude,
              let point = Coordinate(latitude: latitude, longitude: longitude) else { return nil }
        let size = Self.meetupMapSize
        let frame = MapFrame(query: view, width: size.width, height: size.height)
            ?? MapFrame(center: point, zoom: 16, width: size.width, height: size.height)
        return MapPicture(frame: frame, label: localizer.text("maps.meeting_point", language), tiles: tiles,
                          pins: Self.pins([(point, meetup.placeName, nil)], on: frame),
                          controls: MapControls(frame) { "\(Paths.meetup(id))?map=\($0.query)#map" })
    }

    /// Most pins that get their names written beside them; past it names would overlap.
    static let labelledPins = 8

    /// Pins for the places that fall on `frame`, names shortened to fit beside them.
    static func pins(_ places: [(point: Coordinate, label: String, url: String?)], on frame: MapFrame) -> [MapPin] {
        let shown = places.filter { frame.contains($0.point) }
        return shown.map { place in
            let at = frame.position(of: place.point)
            let label = place.label.count > 24 ? String(place.label.prefix(23)) + "…" : place.label
            return MapPin(x: Checked.pixel(at.x), y: Checked.pixel(at.y), title: place.label,
                          label: shown.count <= labelledPins ? label : nil, url: place.url, labelOnLeft: at.x > Double(frame.width) * 0.6)
        }
    }
}

extension App {
    static let listMapSize = (width: 640, height: 440)

    /// The meetups of a list as pins, the view fitted to them (and to the searched circle).
    func meetupsMap(_ meetups: [Meetup], near: NearSearch?, view: String?, query: String, _ language: Language) -> MapPicture? {
        guard let tiles = configuration.tiles else { return nil }
        let size = Self.listMapSize
        let places = meetups.compactMap { meetup -> (point: Coordinate, label: String, url: String?)? in
            guard let latitude = meetup.latitude, let longitude = meetup.longitude, let id = meetup.id,
                  let point = Coordinate(latitude: latitude, longitude: longitude) else { return nil }
            return (point, meetup.title, Paths.meetup(id))
        }
        var shown = places.map(\.point)
        if let near {
            let box = near.point.boundingBox(meters: near.meters)
            shown += [Coordinate(clamping: box.latitudes.lowerBound, box.longitudes.lowerBound),
                      Coordinate(clamping: box.latitudes.upperBound, box.longitudes.upperBound)]
        }
        let frame = MapFrame(query: view, width: size.width, height: size.height)
            ?? MapFrame(fitting: shown, width: size.width, height: size.height, padding: 40, maximumZoom: 16, integral: true)
            ?? MapFrame(center: RegionCenters.fallback, zoom: 11, width: size.width, height: size.height)
        var pins = Self.pins(places, on: frame)
        if let near, frame.contains(near.point) {
            let at = frame.position(of: near.point)
            pins.insert(MapPin(x: Checked.pixel(at.x), y: Checked.pixel(at.y), title: "", label: nil, url: nil, labelOnLeft: false, isCenter: true), at: 0)
        }
        return MapPicture(frame: frame, label: localizer.text("maps.meetups_map", language), tiles: tiles, pins: pins,
                          controls: MapControls(frame) { "\(Paths.meetups)?\(query)view=map&map=\($0.query)#map" })
    }
}
