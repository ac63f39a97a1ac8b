import HTTP
import Storage

/// The crew directory.
struct CrewsView: PageView {
    static let template = "crews"
    let query: String
    let crews: [CrewCardView]
    var hasCrews: Bool { !crews.isEmpty }
    let sports: [Choice]
    let regions: [Choice]
    let orders: [Choice]
    /// For members who have not filtered: crews picked for them.
    var recommended: [CrewCardView] = []
    var hasRecommended: Bool { !recommended.isEmpty }
}

extension App {
    /// `GET /crews`: search by name and description, filter by sport and region, and (for
    /// members) crews recommended for them.
    func crewList(_ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        let query = String((context.form["q"] ?? "").trimmed.prefix(100))
        let sport = context.form["sport"].flatMap(Crew.Sport.init(rawValue:))
        let region = context.form["region"].flatMap { Choices.regions.contains($0) ? $0 : nil }
        let order = context.form["sort"].flatMap(CrewOrder.init(rawValue:)) ?? .activity
        let crews = try database.searchCrews(query, sport: sport, region: region, order: order)
        var view = CrewsView(
            query: query,
            crews: crews.map { crewCard($0, language) },
            sports: choices(Crew.Sport.allCases.map(\.rawValue), labels: "crews.sport", selected: sport?.rawValue, language),
            regions: choices(Choices.regions, labels: "choices.region", selected: region, language),
            orders: choices(CrewOrder.allCases.map(\.rawValue), labels: "crews.order", selected: order.rawValue, language)
        )
        if let user = context.user, query.isEmpty, sport == nil, region == nil {
            view.recommended = try database.recommendedCrews(userID: user.storedID, region: user.region).map { crewCard($0, language) }
        }
        return page(view, context, title: localizer.text("crews.title", language), section: .crews)
    }
}
