import Formats
import Foundation
import Geo
import Storage

extension App {
    /// The sizes of a meetup's map, in the pixels of a phone's column and of a wide one.
    static let meetupMapSizes: [MapPicture.Screen: (width: Int, height: Int)] = [.phone: (320, 220), .wide: (600, 320)]

    /// A meetup's meeting point on the tiles, or in the view `?map=` asks for.
    func meetupMap(_ meetup: Meetup, view: String?, _ language: Language) -> MapPicture? {
        guard configuration.tiles != nil, let id = meetup.id,
              let latitude = meetup.latitude, let longitude = meetup.longitude,
              let point = Coordinate(latitude: latitude, longitude: longitude) else { return nil }
        return placeMap(point, name: meetup.placeName, label: localizer.text(.maps.meeting_point, language), view: view, page: Paths.meetup(id))
    }

    /// One place pinned on the tiles (a meetup's meeting point, a place sent in a room), in
    /// the view `?map=` asks for on `page`, whose zoom and pan links come back to it.
    func placeMap(_ point: Coordinate, name: String, label: String, view: String?, page: String) -> MapPicture {
        let frames = MapPicture.Screen.allCases.map { screen in
            let size = Self.meetupMapSizes[screen] ?? (600, 320)
            return (screen, MapFrame(query: view, width: size.width, height: size.height)
                ?? MapFrame(center: point, zoom: 16, width: size.width, height: size.height))
        }
        return MapPicture(frames, label: label, tiles: configuration.tiles,
                          controls: frames.last.map { MapControls($0.1) { "\(page)?map=\($0.query)#map" } }) { frame in
            (nil, Self.pins([(point, name, nil)], on: frame))
        }
    }

    /// Pins for the places that fall on `frame`, each with its name above it (shortened) where
    /// that name would not cover another's: names are placed in order, and one that would
    /// overlap a name already placed is left to the pin's tooltip.
    static func pins(_ places: [(point: Coordinate, label: String, url: String?)], on frame: MapFrame) -> [MapPin] {
        var placed: [(x: ClosedRange<Double>, y: ClosedRange<Double>)] = []
        return places.filter { frame.contains($0.point) }.map { place in
            let at = frame.position(of: place.point)
            let label = place.label.count > 24 ? String(place.label.prefix(23)) + "…" : place.label
            let anchor = at.x < 90 ? "start" : at.x > Double(frame.width) - 90 ? "end" : "middle"
            // About 9.5 pixels a character at the labels' 18 px, wider for Hangul.
            let width = label.unicodeScalars.reduce(0.0) { $0 + ($1.value > 0x2E80 ? 18 : 9.5) }
            let left = anchor == "start" ? at.x : anchor == "end" ? at.x - width : at.x - width / 2
            let box = (x: left...(left + width), y: (at.y - 48)...(at.y - 26))
            let free = !placed.contains { $0.x.overlaps(box.x) && $0.y.overlaps(box.y) }
            if free { placed.append(box) }
            return MapPin(x: Checked.pixel(at.x), y: Checked.pixel(at.y), title: place.label, label: free ? label : nil, url: place.url,
                          labelAnchor: anchor)
        }
    }
}

extension App {
    static let listMapSizes: [MapPicture.Screen: (width: Int, height: Int)] = [.phone: (320, 320), .wide: (640, 440)]

    /// The meetups of a list as pins, the view fitted to them (and to the searched circle).
    func meetupsMap(_ meetups: [Meetup], near: NearSearch?, view: String?, query: String, _ language: Language) -> MapPicture? {
        guard let tiles = configuration.tiles else { return nil }
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
        let frames = MapPicture.Screen.allCases.map { screen in
            let size = Self.listMapSizes[screen] ?? (640, 440)
            return (screen, MapFrame(query: view, width: size.width, height: size.height)
                ?? MapFrame(fitting: shown, width: size.width, height: size.height, padding: 32, maximumZoom: 16, integral: true)
                ?? MapFrame(center: RegionCenters.fallback, zoom: 11, width: size.width, height: size.height))
        }
        return MapPicture(frames, label: localizer.text(.maps.meetups_map, language), tiles: tiles,
                          controls: frames.last.map { MapControls($0.1) { "\(Paths.meetups)?\(query)view=map&map=\($0.query)#map" } }) { frame in
            var pins = Self.pins(places, on: frame)
            if let near, frame.contains(near.point) {
                let at = frame.position(of: near.point)
                pins.insert(MapPin(x: Checked.pixel(at.x), y: Checked.pixel(at.y), title: "", label: nil, url: nil, labelAnchor: "middle",
                                   isCenter: true, radius: Checked.pixel(near.meters / frame.metersPerPixel)), at: 0)
            }
            return (nil, pins)
        }
    }
}
