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
    /// The "near" and "within" selects.
    let near: NearChoicesView
    /// In a near search: crews by their nearest meeting point, with its distance.
    let isNear: Bool
}

extension App {
    /// `GET /crews`: search by name and description, filter by sport and region, and (for
    /// members) crews recommended for them.
    func crewList(_ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        if let tapped = NearSearch.redirect(context.form, to: Paths.crews) { return tapped }
        let near = NearSearch(context.form, user: context.user)
        let query = String((context.form["q"] ?? "").trimmed.prefix(100))
        let sport = context.form["sport"].flatMap(Crew.Sport.init(rawValue:))
        let region = context.form["region"].flatMap { Choices.regions.contains($0) ? $0 : nil }
        let order = context.form["sort"].flatMap(CrewOrder.init(rawValue:)) ?? .activity
        var cards: [CrewCardView]
        if let near {
            // Crews by where they meet; the other filters narrow what is near.
            let found = try database.meetups.crews(near: near.point, radius: near.meters).filter { crew, _ in
                (sport == nil || crew.sport == sport) && (region == nil || crew.region == region)
                    && (query.isEmpty || crew.name.localizedCaseInsensitiveContains(query) || crew.description.localizedCaseInsensitiveContains(query))
            }
            cards = found.map { crew, meters in
                var card = crewCard(crew, language)
                card.away = away(meters, language)
                return card
            }
        } else {
            cards = try database.crews.searchCrews(query, sport: sport, region: region, order: order).map { crewCard($0, language) }
        }
        var view = CrewsView(
            query: query,
            crews: cards,
            sports: choices(Crew.Sport.allCases.map(\.rawValue), labels: TextKey.crews.sport.named, selected: sport?.rawValue, language),
            regions: choices(Choices.regions, labels: TextKey.choices.region.named, selected: region, language),
            orders: choices(CrewOrder.allCases.map(\.rawValue), labels: TextKey.crews.order.named, selected: order.rawValue, language),
            near: nearChoices(near, user: context.user, language),
            isNear: near != nil
        )
        if let user = context.user, query.isEmpty, sport == nil, region == nil, near == nil {
            view.recommended = try database.crews.recommendedCrews(userID: user.storedID, region: user.region).map { crewCard($0, language) }
        }
        return page(view, context, title: localizer.text(.crews.title, language), section: .crews)
    }
}
