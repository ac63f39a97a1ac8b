import HTTP
import Storage

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
        var view: [String: Any] = [
            "query": query,
            "crews": crews.map { crewView($0, language) },
            "hasCrews": !crews.isEmpty,
            "sports": options(Crew.Sport.allCases.map(\.rawValue), labels: "crews.sport", selected: sport?.rawValue, language),
            "regions": options(Choices.regions, labels: "choices.region", selected: region, language),
            "orders": options(CrewOrder.allCases.map(\.rawValue), labels: "crews.order", selected: order.rawValue, language),
        ]
        if let user = context.user, query.isEmpty, sport == nil, region == nil {
            let recommended = try database.recommendedCrews(userID: user.storedID, region: user.region)
            view["recommended"] = recommended.map { crewView($0, language) }
            view["hasRecommended"] = !recommended.isEmpty
        }
        return try render("crews", context, title: localizer.text("crews.title", language), section: .crews, view)
    }
}
