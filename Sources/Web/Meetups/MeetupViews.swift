import CompiledHTML
import Formats
import Foundation
import HTTP
import Storage

extension App {
    /// A meetup as list cards show it.
    func meetupCard(_ meetup: Meetup, _ language: Language) -> MeetupCardView {
        MeetupCardView(
            id: meetup.id ?? 0,
            url: Paths.meetup(meetup.id ?? 0),
            title: meetup.title,
            when: localizer.meetupStart(meetup.startsAt, language),
            isoDate: InternetDate.format(meetup.startsAt),
            place: meetup.placeName,
            region: meetup.region.map { localizer.text(TextKey.choices.region.named($0), language, otherwise: $0) },
            kind: meetupKind(meetup, language),
            distance: meetup.distanceKm.map { localizer.text(.meetups.km, language, ["km": Self.decimal($0)]) },
            going: localizer.text(.meetups.going_count, language, ["count": String(meetup.acceptedCount), "capacity": String(meetup.capacity)]),
            closed: meetup.isClosed(at: Date()),
            cancelled: meetup.isCancelled,
            full: meetup.acceptedCount >= meetup.capacity,
            rules: meetupRules(meetup, language),
            crewOnly: meetup.crewOnly
        )
    }

    /// The cards of a list of meetups, each rendered once per meetup and language and kept
    /// while its stamp, whether it is closed and the year (cards name other years) stay the
    /// same; whole rows are read only for cards not kept, unless the page has read them
    /// (`rows`). `notes` gives a card its note (a distance, a place on the waitlist), written
    /// between its kept parts.
    func meetupCardsHTML(_ stamps: [MeetupStamp], _ language: Language, rows: [Meetup]? = nil, notes: [Int64: String] = [:],
                         now: Date = Date()) throws -> [MeetupCardHTML] {
        let year = CivilTime(now, localizer.timeZone)?.year ?? 0
        let key = { (id: Int64) in FragmentCache<MeetupCardSource>.Key(id: id, language: language.templateIndex) }
        let source = { (stamp: MeetupStamp) in MeetupCardSource(stamp: stamp, closed: stamp.isClosed(at: now), year: year) }
        var kept: [Int64: FragmentCache<MeetupCardSource>.Fragments] = [:]
        for stamp in stamps { kept[stamp.id] = meetupCards.kept(key(stamp.id), source(stamp)) }
        let read = try rows.map { rows in rows.filter { kept[$0.id ?? 0] == nil } }
            ?? database.meetups.meetups(ids: stamps.compactMap { kept[$0.id] == nil ? $0.id : nil })
        for meetup in read {
            let stamp = MeetupStamp(meetup), card = meetupCard(meetup, language)
            kept[stamp.id] = meetupCards.fragments(key(stamp.id), source(stamp)) {
                .init(byline: MeetupCardHeadView(card: card), content: MeetupCardTailView(card: card), language: language, size: 512)
            }
        }
        return stamps.compactMap { stamp in
            kept[stamp.id].map { MeetupCardHTML(head: $0.byline, note: notes[stamp.id], tail: $0.content) }
        }
    }

    /// The chips that say what kind of meetup it is (`MeetupCardView.kind`).
    func meetupKind(_ meetup: Meetup, _ language: Language) -> [String] {
        let text = { (key: TextKey) in self.localizer.text(key, language) }
        var words = [text(meetup.sport.textKey), text(meetup.timeSlot.textKey)]
        if meetup.sport.hasPace { words += [text(meetup.pace.textKey), text(meetup.style.textKey)] }
        let named = { (key: TextKey?, value: String) in self.localizer.text(key, language, otherwise: value) }
        words += [meetup.level.map { named(TextKey.meetups.level.named($0.rawValue), $0.rawValue) },
                  meetup.gameFormat.map { named(TextKey.meetups.format.named($0.rawValue), $0.rawValue) },
                  meetup.difficulty.map { named(TextKey.meetups.difficulty.named($0.rawValue), $0.rawValue) },
                  meetup.ascentMeters.map { localizer.text(.meetups.ascent_chip, language, ["meters": localizer.number($0, language)]) },
                  meetup.speedGroup.map { named(TextKey.meetups.speed.named($0.rawValue), $0.rawValue) }].compactMap { $0 }
        return words
    }

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
    let id: Int64
    let url: String
    let title: String
    let when: String
    let isoDate: String
    let place: String
    let region: String?
    /// What kind of meetup, in a few words: its sport, when in the week, and the sport's own
    /// details (a run's pace and style, a game's level and format, a hike's difficulty and ascent,
    /// a ride's speed).
    let kind: [String]
    let distance: String?
    let going: String
    let closed: Bool
    let cancelled: Bool
    let full: Bool
    /// The eligibility rules in words; empty when anyone may join.
    let rules: [String]
    let crewOnly: Bool
}

/// A meetup's card up to where a near search says how far it is, and from there on: the two
/// parts kept as bytes (`App.meetupCardsHTML`).
struct MeetupCardHeadView {
    static let template = "meetup-card-head"
    let card: MeetupCardView
}

struct MeetupCardTailView {
    static let template = "meetup-card-tail"
    let card: MeetupCardView
}

/// A meetup's card: its two kept parts, and its distance from a point between them.
struct MeetupCardHTML {
    static let template = "meetup-card"
    let head: HTMLFragment
    /// A word before the place: the distance from a point, a place on the waitlist, attendance.
    let note: String?
    let tail: HTMLFragment
}

/// What a meetup's card is rendered from.
struct MeetupCardSource: Equatable, Sendable {
    let stamp: MeetupStamp
    let closed: Bool
    let year: Int
}
