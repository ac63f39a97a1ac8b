import Foundation
import HTTP
import Storage

extension App {
    /// `GET /meetups/:id`: the details, who is going, and one clear next step for the viewer.
    func meetupShow(_ context: RequestContext) throws -> HTTPResponse {
        let meetup = try meetup(context)
        let language = context.language
        let meetupID = try meetup.storedID
        let now = Date()
        guard let host = try database.user(id: meetup.hostID) else { throw HTTPError(.notFound) }
        let viewer = context.user
        let isHost = viewer?.id == meetup.hostID
        let application = try viewer.flatMap { try database.application(meetupID: meetupID, userID: $0.storedID) }
        let participants = try database.participants(meetupID: meetupID)
        let canTalk = try viewer.map { try database.canTalk(meetupID: meetupID, userID: $0.storedID) } ?? false

        var view = meetupView(meetup, language)
        view["descriptionHTML"] = meetup.descriptionHTML
        view["host"] = userView(host)
        view["ends"] = localizer.dateTime(meetup.endsAt, language)
        view["deadline"] = localizer.dateTime(meetup.deadline, language)
        view["timeZone"] = localizer.timeZone.identifier
        view["address"] = meetup.address.nilIfEmpty
        view["placeNote"] = meetup.placeNote.nilIfEmpty
        view["mapURL"] = meetup.latitude.flatMap { lat in meetup.longitude.map { "geo:\(lat),\($0)" } }
        view["afterParty"] = meetup.afterParty
        view["mode"] = localizer.text("meetups.mode.\(meetup.signupMode.rawValue)", language)
        let waitlist = try database.waitlistLength(meetupID: meetupID)
        view["waitlist"] = waitlist > 0 ? waitlist : nil
        view["icsURL"] = Paths.meetup(meetupID) + ".ics"
        view["hasRules"] = !meetupRules(meetup, language).isEmpty

        // One call to action for the viewer.
        var action: [String: Any] = [:]
        if viewer == nil {
            action["login"] = true
        } else if isHost {
            action["host"] = true
        } else if let application, application.status != .cancelled {
            action[application.status.rawValue] = true
            if let place = application.waitlistPlace { action["place"] = place }
        } else if meetup.isClosed(at: now) {
            action["closed"] = true
        } else if let viewer, case let reasons = meetup.ineligibility(of: viewer, at: now), !reasons.isEmpty {
            action["ineligible"] = reasons.map { localizer.text("meetups.why.\($0.rawValue)", language) }
            action["needsProfile"] = reasons.contains(where: \.needsProfile)
        } else {
            action["apply"] = true
            action["willWait"] = meetup.signupMode == .firstCome && meetup.acceptedCount >= meetup.capacity
        }
        let accepted = participants.filter { $0.status == .accepted }
        return try render("meetup", context, title: meetup.title, section: .meetups, [
            "meetup": view,
            "action": action,
            "isHost": isHost,
            "started": now >= meetup.startsAt,
            "canClose": isHost && meetup.closedAt == nil && !meetup.isClosed(at: now),
            "going": accepted.map { participantView($0, meetupID: meetupID) },
            "hasGoing": !accepted.isEmpty,
            "pending": isHost ? participants.filter { $0.status == .pending }.map { participantView($0, meetupID: meetupID) } : [],
            "hasPending": isHost && participants.contains { $0.status == .pending },
            "canTalk": canTalk,
            "talk": canTalk ? try database.talk(meetupID: meetupID, viewerID: viewer?.storedID ?? 0).map { entry -> [String: Any] in
                ["author": userView(entry.author), "bodyHTML": entry.bodyHTML, "date": localizer.dateTime(entry.createdAt, language)]
            } : [],
            "talkCount": try database.talkCount(meetupID: meetupID),
            "report": reportView(.meetup, meetupID, context),
            "bookmarked": try viewer.map { try database.isMeetupBookmarked(meetupID: meetupID, userID: $0.storedID) } ?? false,
        ])
    }

    private func participantView(_ participant: Participant, meetupID: Int64) -> [String: Any] {
        var view = userView(participant.user)
        view["userID"] = participant.user.id ?? 0
        view["present"] = participant.attended == true
        view["actionBase"] = Paths.meetup(meetupID) + "/applications/" + PercentEncoding.encode(participant.user.username)
        return view
    }
}
