import CompiledHTML
import Formats
import Foundation
import HTTP
import Storage

extension App {
    /// A meetup as list cards show it.
    func meetupCard(_ meetup: Meetup, _ language: Language) -> MeetupCardView {
        let text = { (key: TextKey) in self.localizer.text(key, language) }
        return MeetupCardView(
            id: meetup.id ?? 0,
            url: Paths.meetup(meetup.id ?? 0),
            title: meetup.title,
            when: localizer.meetupStart(meetup.startsAt, language),
            isoDate: InternetDate.format(meetup.startsAt),
            place: meetup.placeName,
            region: meetup.region.map { localizer.text(TextKey.choices.region.named($0), language, otherwise: $0) },
            slot: text(meetup.timeSlot.textKey),
            pace: text(meetup.pace.textKey),
            style: text(meetup.style.textKey),
            distance: meetup.distanceKm.map { localizer.text(.meetups.km, language, ["km": Self.decimal($0)]) },
            going: localizer.text(.meetups.going_count, language, ["count": String(meetup.acceptedCount), "capacity": String(meetup.capacity)]),
            closed: meetup.isClosed(at: Date()),
            full: meetup.acceptedCount >= meetup.capacity,
            rules: meetupRules(meetup, language),
            crewOnly: meetup.crewOnly
        )
    }

    /// The cards of a page of the list, each rendered once per meetup and language and kept
    /// while its stamp, whether it is closed and the year (cards name other years) stay the
    /// same; whole rows are read for the others only. `year` is this year where the site is
    /// (`cardYear(now)`, read once for a page). `rows`, when the page has read them, are used
    /// instead of reading them again.
    func meetupCardsHTML(_ stamps: [MeetupStamp], _ language: Language, now: Date, year: Int, rows: [Meetup]? = nil) throws -> [MeetupCardHTML] {
        let key = { (id: Int64) in FragmentCache<MeetupCardSource>.Key(id: id, language: language.templateIndex) }
        let source = { (stamp: MeetupStamp) in MeetupCardSource(stamp: stamp, closed: stamp.isClosed(at: now), year: year) }
        var cards: [Int64: HTMLFragment] = [:]
        for stamp in stamps { cards[stamp.id] = meetupCards.fragment(key(stamp.id), source(stamp)) }
        let missing = stamps.filter { cards[$0.id] == nil }.map(\.id)
        for meetup in try rows.map { rows in rows.filter { cards[$0.id ?? 0] == nil } } ?? database.meetups.meetups(ids: missing) {
            let stamp = MeetupStamp(meetup)
            let card = meetupCardHTML(meetup, language)
            meetupCards.keep(key(stamp.id), source(stamp), card.html, language: language)
            cards[stamp.id] = card.html
        }
        return stamps.compactMap { cards[$0.id].map(MeetupCardHTML.init) }
    }

    /// A meetup's card as bytes, rendered now; `away` is its distance from a point.
    func meetupCardHTML(_ meetup: Meetup, _ language: Language, away: String? = nil) -> MeetupCardHTML {
        var card = meetupCard(meetup, language)
        card.away = away
        var writer = HTMLWriter(language, capacity: 1_024)
        card.render(into: &writer)
        return MeetupCardHTML(html: HTMLFragment(writer))
    }

    /// This year where the site is: a card names the year of a meetup in another.
    func cardYear(_ now: Date) -> Int { CivilTime(now, localizer.timeZone)?.year ?? 0 }

    /// The eligibility rules in words; empty when anyone may join.
    func meetupRules(_ meetup: Meetup, _ language: Language) -> [String] {
        var rules: [String] = []
        if let rule = meetup.genderRule.ruleKey { rules.append(localizer.text(rule, language)) }
        switch (meetup.minAge, meetup.maxAge) {
        case let (min?, max?): rules.append(localizer.text(.meetups.rule.ages, language, ["min": String(min), "max": String(max)]))
        case let (min?, nil): rules.append(localizer.text(.meetups.rule.min_age, language, ["min": String(min)]))
        case let (nil, max?): rules.append(localizer.text(.meetups.rule.max_age, language, ["max": String(max)]))
        default: break
        }
        if !meetup.jobList.isEmpty {
            rules.append(meetup.jobList.map { localizer.text(TextKey.choices.job.named($0), language, otherwise: $0) }.joined(separator: ", "))
        }
        if meetup.workplaceOnly { rules.append(localizer.text(.meetups.rule.workplace, language)) }
        return rules
    }

    /// The meetup named by `:id`, if the viewer may see it; 404 otherwise.
    func meetup(_ context: RequestContext) throws -> Meetup {
        guard let id = context.request.parameters["id"].flatMap(Checked.id), let meetup = try database.meetups.meetup(id: id) else {
            throw HTTPError(.notFound)
        }
        if meetup.hiddenAt != nil, context.user?.isStaff != true, context.user?.id != meetup.hostID { throw HTTPError(.notFound) }
        if meetup.crewOnly, let crewID = meetup.crewID {
            let role = try context.user.flatMap { try database.crews.crewRole(crewID: crewID, userID: $0.storedID) }
            guard role?.isMember == true else { throw HTTPError(.notFound) }
        }
        return meetup
    }

    static func decimal(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}

/// A meetup as its card shows it.
struct MeetupCardView {
    static let template = "meetup-card"
    let id: Int64
    let url: String
    let title: String
    let when: String
    let isoDate: String
    let place: String
    let region: String?
    let slot: String
    let pace: String
    let style: String
    let distance: String?
    let going: String
    let closed: Bool
    let full: Bool
    /// The eligibility rules in words; empty when anyone may join.
    let rules: [String]
    let crewOnly: Bool
    /// "1.2 km away", in a near search.
    var away: String? = nil
}

/// A meetup's card as bytes, kept (`App.meetupCardHTML`).
struct MeetupCardHTML {
    let html: HTMLFragment
}

/// What a meetup's card is rendered from.
struct MeetupCardSource: Equatable, Sendable {
    let stamp: MeetupStamp
    let closed: Bool
    let year: Int
}
