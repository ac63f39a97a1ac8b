import Formats
import Foundation
import HTTP
import Storage

/// Upcoming meetups with their filters; every filter is echoed back into the form.
struct MeetupsView: PageView {
    static let template = "meetups"
    let meetups: [MeetupCardHTML]
    var hasMeetups: Bool { !meetups.isEmpty }
    let nextURL: String?
    let filters: MeetupFilterForm
    /// The member's private calendar feed.
    let calendarURL: String?
    /// How many of the folded-away filters are set (nil for none): the fold stays open then.
    let activeFilters: Int?
    var filtersOpen: Bool { activeFilters != nil }
    /// The "near" and "within" selects.
    let near: NearChoicesView
    /// The list as pins on a map (`view=map`), when the site has map tiles.
    let map: MapPicture?
    /// Links between the list and the map of the same search.
    let listURL: String?
    let mapURL: String?
}

/// The filters' form as it was sent: what was typed and which choices are selected.
struct MeetupFilterForm {
    let q: String
    let from: String
    let to: String
    let minKm: String
    let maxKm: String
    let age: String
    let open: Bool
    let eligible: Bool
    /// Only meetups for verified office workers.
    let workplace: Bool
    let sports: [Choice]
    let slots: [Choice]
    let paces: [Choice]
    let genders: [Choice]
    let regions: [Choice]
    let jobs: [Choice]
}

extension App {
    /// `GET /meetups`: upcoming meetups, soonest first, with every filter in the URL.
    func meetupList(_ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        let form = context.form
        if let tapped = NearSearch.redirect(form, to: Paths.meetups) { return tapped }
        let near = NearSearch(form, user: context.user)
        var filter = MeetupFilter()
        let day = { (name: String) in form[name].flatMap { Checked.localDateTime($0 + "T00:00", in: self.localizer.timeZone) } }
        filter.from = day("from")
        filter.to = day("to").map { $0.addingTimeInterval(86_400) }
        filter.sport = form["sport"].flatMap(Meetup.Sport.init(rawValue:))
        filter.timeSlot = form["slot"].flatMap(Meetup.TimeSlot.init(rawValue:))
        filter.region = form["region"].flatMap { Choices.regions.contains($0) ? $0 : nil }
        filter.minDistance = form["min_km"].flatMap { Checked.decimal($0, in: 0...1_000) }
        filter.maxDistance = form["max_km"].flatMap { Checked.decimal($0, in: 0...1_000) }
        filter.pace = form["pace"].flatMap(Meetup.Pace.init(rawValue:))
        filter.genderRule = form["gender"].flatMap(Meetup.GenderRule.init(rawValue:))
        filter.age = form["age"].flatMap { Checked.integer($0, in: 0...150) }
        filter.job = form["job"].flatMap { Choices.jobs.contains($0) ? $0 : nil }
        filter.openOnly = form["open"] == "1"
        filter.workplaceOnly = form["workplace"] == "1"
        filter.keyword = form["q"].map { String($0.trimmed.prefix(100)) }
        let mine = form["eligible"] == "1" ? context.user : nil
        if let mine {
            // "Only ones I can join": my age, job and gender narrow the list.
            if let year = mine.birthYear { filter.age = Calendar(identifier: .gregorian).component(.year, from: Date()) - year }
            filter.job = mine.job ?? filter.job
            filter.openOnly = true
        }
        // Whole rows where the page needs them (the map, a member's eligibility), and cards by
        // their distance near a point; otherwise stamps, and rows only for cards not kept.
        let showsMap = form["view"] == "map" && configuration.tiles != nil
        let now = Date()
        var meetups: [Meetup] = [], cards: [MeetupCardHTML], next: MeetupCursor?
        if let near {
            let found = try database.meetups.meetups(filter, near: near.point, radius: near.meters, viewerID: context.user?.id)
            (meetups, next) = (found.map(\.meetup), nil)
            let distances = Dictionary(found.map { ($0.meetup.id ?? 0, away($0.meters, language)) }, uniquingKeysWith: { first, _ in first })
            cards = try meetupCardsHTML(meetups.map(MeetupStamp.init), language, rows: meetups, notes: distances, now: now)
        } else if mine != nil || showsMap {
            (meetups, next) = try database.meetups.meetups(filter, viewerID: context.user?.id, after: try meetupCursor(form["after"]))
            if let mine { meetups = meetups.filter { $0.ineligibility(of: mine, at: now).isEmpty } }
            cards = try meetupCardsHTML(meetups.map(MeetupStamp.init), language, rows: meetups, now: now)
        } else {
            let stamps: [MeetupStamp]
            (stamps, next) = try database.meetups.meetupStamps(filter, viewerID: context.user?.id, after: try meetupCursor(form["after"]))
            cards = try meetupCardsHTML(stamps, language, now: now)
        }

        let folded = ["from", "to", "slot", "region", "pace", "min_km", "max_km", "gender", "age", "job"].count { !(form[$0] ?? "").isEmpty }
        let kept = context.request.queryString.split(separator: "&").filter { !$0.hasPrefix("after=") && !$0.hasPrefix("map=") && !$0.hasPrefix("view=") }
        var query = kept.joined(separator: "&")
        if !query.isEmpty { query += "&" }
        let view = MeetupsView(
            meetups: cards,
            nextURL: next.map { Paths.meetups + "?" + query + "after=\(Checked.rounded($0.startsAt.timeIntervalSince1970.rounded(.down), in: Int.min...Int.max) ?? 0)-\($0.id)" },
            filters: MeetupFilterForm(
                q: form["q"] ?? "", from: form["from"] ?? "", to: form["to"] ?? "", minKm: form["min_km"] ?? "",
                maxKm: form["max_km"] ?? "", age: form["age"] ?? "", open: filter.openOnly, eligible: mine != nil, workplace: filter.workplaceOnly,
                sports: choices(Meetup.Sport.allCases.map(\.rawValue), labels: TextKey.crews.sport.named, selected: filter.sport?.rawValue, language),
                slots: choices(Meetup.TimeSlot.allCases.map(\.rawValue), labels: TextKey.meetups.slot.named, selected: filter.timeSlot?.rawValue, language),
                paces: choices(Meetup.Pace.allCases.map(\.rawValue), labels: TextKey.meetups.pace.named, selected: filter.pace?.rawValue, language),
                genders: choices(Meetup.GenderRule.allCases.map(\.rawValue), labels: TextKey.meetups.gender.named, selected: filter.genderRule?.rawValue, language),
                regions: choices(Choices.regions, labels: TextKey.choices.region.named, selected: filter.region, language),
                jobs: choices(Choices.jobs, labels: TextKey.choices.job.named, selected: form["job"], language)),
            calendarURL: try context.user.map { user in
                "/calendar/" + (try database.meetups.calendarToken(userID: user.storedID) { Crypto.randomToken(24) }) + ".ics"
            },
            activeFilters: folded > 0 ? folded : nil,
            near: nearChoices(near, user: context.user, language),
            map: showsMap ? meetupsMap(meetups, near: near, view: form["map"], query: query, language) : nil,
            listURL: showsMap ? Paths.meetups + "?" + kept.joined(separator: "&") : nil,
            mapURL: configuration.tiles != nil && !showsMap ? Paths.meetups + "?" + query + "view=map" : nil
        )
        return page(view, context, title: localizer.text(.meetups.title, language), section: .meetups)
    }

    /// `after=<unix seconds>-<id>`; garbage is a 400.
    private func meetupCursor(_ text: String?) throws -> MeetupCursor? {
        guard let text else { return nil }
        let parts = text.split(separator: "-")
        guard parts.count == 2, let seconds = Checked.integer(parts[0], in: 0...10_000_000_000), let id = Checked.id(parts[1]) else { throw HTTPError(.badRequest) }
        return MeetupCursor(startsAt: Date(timeIntervalSince1970: Double(seconds)), id: id)
    }
}
