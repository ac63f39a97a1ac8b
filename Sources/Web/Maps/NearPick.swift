import Foundation
import Geo
import HTTP

/// A map to tap for a near search; the tap goes to the meetup or crew list.
struct NearPickView: PageView {
    static let template = "near"
    /// `/meetups` or `/crews`: where the tap is sent.
    let action: String
    /// `meetups` or `crews`, carried through zoom and pan.
    let to: String
    let picker: MapPickerView
    let radii: [Choice]
}

extension App {
    /// `GET /near?to=meetups|crews`: pick the point of a near search on a map (zoom and pan
    /// buttons come back here with the view in `map`).
    func nearPick(_ context: RequestContext) throws -> HTTPResponse {
        guard let tiles = configuration.tiles else { throw HTTPError(.notFound) }
        let language = context.language
        let action = context.form["to"] == "crews" ? Paths.crews : Paths.meetups
        let near = NearSearch(context.form, user: context.user)
        let start = near?.point ?? RegionCenters.center(context.user?.region) ?? RegionCenters.fallback
        let picker = MapPicker.moved(in: context.form) ?? MapPicker(around: start, zoom: 13)
        let radius = near?.radius ?? NearSearch.radius(context.form)
        let view = NearPickView(
            action: action, to: action == Paths.crews ? "crews" : "meetups",
            picker: picker.view(pin: near?.point, label: localizer.text(.maps.pick_near, language), tiles: tiles, input: "at",
                                moveAction: Paths.near),
            radii: NearSearch.radiusChoices(selected: radius))
        return page(view, context, title: localizer.text(.maps.near_title, language), section: action == Paths.crews ? .crews : .meetups)
    }
}
