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
