import Formats
import Foundation
import Geo
import HTTP
import Storage

/// A "near" search as the URL carries it: `near=home` (the member's region) or
/// `near=37.528300,126.932700`, and `radius=` one of `radii` kilometres.
struct NearSearch {
    static let radii = [1, 3, 10, 30]
    static let defaultRadius = 3

    let point: Coordinate
    let radius: Int
    /// The point is the member's home area, not one picked.
    let fromHome: Bool
    var meters: Double { Double(radius) * 1000 }

    /// nil without `near` or with one that is not a point (or `home` for someone without a region).
    init?(_ form: URLEncodedForm, user: User?) {
        guard let near = form["near"], !near.isEmpty else { return nil }
        if near == "home" {
            guard let home = RegionCenters.center(user?.region) else { return nil }
            point = home
            fromHome = true
        } else {
            guard let picked = Coordinate(near) else { return nil }
            point = picked
            fromHome = false
        }
        radius = Self.radius(form)
    }

    /// `radius=` when it is one of `radii`, else the default.
    static func radius(_ form: URLEncodedForm) -> Int {
        form["radius"].flatMap { Checked.integer($0, in: 1...30) }.flatMap { radii.contains($0) ? $0 : nil } ?? defaultRadius
    }

    /// The "within" select's options.
    static func radiusChoices(selected: Int) -> [Choice] {
        radii.map { Choice(value: String($0), label: "\($0) km", selected: $0 == selected) }
    }

    /// The list at `path` around the point a tap on the near picker chose; nil without a tap.
    static func redirect(_ form: URLEncodedForm, to path: String) -> HTTPResponse? {
        guard let point = tapped(form) else { return nil }
        return .redirect(to: path + "?near=\(point.text)&radius=\(radius(form))")
    }

    /// The point a tap on a near picker (`at.x`, `at.y` on the view `map`) chose.
    static func tapped(_ form: URLEncodedForm) -> Coordinate? {
        guard let frame = MapFrame(query: form["map"], width: MapPicker.size, height: MapPicker.size),
              let x = form["at.x"].flatMap({ Checked.integer($0, in: 0...MapPicker.size) }),
              let y = form["at.y"].flatMap({ Checked.integer($0, in: 0...MapPicker.size) }) else { return nil }
        return frame.coordinate(x: Double(x), y: Double(y))
    }
}

extension App {
    /// "850 m away", "3.2 km away".
    func away(_ meters: Double, _ language: Language) -> String {
        let distance = meters < 1000 ? "\(Checked.rounded(meters / 10, in: 0...100).map { $0 * 10 } ?? 0) m" : String(format: "%.1f km", meters / 1000)
        return localizer.text(.maps.away, language, ["distance": distance])
    }

    /// The "near" and "within" selects of a list's filters.
    func nearChoices(_ near: NearSearch?, user: User?, _ language: Language) -> NearChoicesView {
        var places = [Choice(value: "", label: localizer.text(.maps.near_none, language), selected: near == nil)]
        if let region = user?.region, RegionCenters.center(region) != nil {
            let name = localizer.text(TextKey.choices.region.named(region), language, otherwise: region)
            places.append(Choice(value: "home", label: localizer.text(.maps.near_home, language, ["region": name]), selected: near?.fromHome == true))
        }
        if let near, !near.fromHome {
            places.append(Choice(value: near.point.text, label: localizer.text(.maps.near_point, language), selected: true))
        }
        return NearChoicesView(places: places, radii: NearSearch.radiusChoices(selected: near?.radius ?? NearSearch.defaultRadius),
                               canPick: configuration.tiles != nil)
    }
}

/// The near-search fields of a list's filter form.
struct NearChoicesView {
    let places: [Choice]
    let radii: [Choice]
    /// "Pick on a map" is offered when the site has map tiles.
    let canPick: Bool
}
