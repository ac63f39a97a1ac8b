import Foundation
import HTTP
import Storage

extension App {
    /// `GET /meetups/new` (`?crew=slug` to host it for a crew)
    func meetupNew(_ context: RequestContext) throws -> HTTPResponse {
        _ = try context.requireUser()
        var form = MeetupForm()
        form.crew = context.form["crew"] ?? ""
        return try renderMeetupForm(form, errors: FieldErrors(), editing: nil, context)
    }

    /// `POST /meetups`
    func meetupCreate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        try requireCanPost(user, .meetups, context)
        let form = MeetupForm(context.form)
        let crew = try form.crew.isEmpty ? nil : database.crew(slug: form.crew)
        let (meetup, errors) = form.validate(host: user, crewID: crew?.id, timeZone: localizer.timeZone)
        guard let meetup else { return try renderMeetupForm(form, errors: errors, editing: nil, context) }
        let created = try storageAction(context) { try database.createMeetup(meetup) }
        return redirect(to: Paths.meetup(try created.storedID), flash: "meetup_created")
    }

    /// `GET /meetups/:id/edit`: the host's form.
    func meetupEdit(_ context: RequestContext) throws -> HTTPResponse {
        let meetup = try hostedMeetup(context)
        return try renderMeetupForm(MeetupForm(meetup, timeZone: localizer.timeZone), errors: FieldErrors(), editing: meetup, context)
    }

    /// `POST /meetups/:id/edit`: saves, and tells participants when the time or place changed.
    func meetupUpdate(_ context: RequestContext) throws -> HTTPResponse {
        let old = try hostedMeetup(context)
        let user = try context.requireUser()
        let form = MeetupForm(context.form)
        var (edited, errors) = form.validate(host: user, crewID: old.crewID, timeZone: localizer.timeZone)
        if var meetup = edited {
            meetup.id = old.id
            var changes: [String] = []
            if meetup.startsAt != old.startsAt { changes.append(localizer.dateTime(meetup.startsAt, context.language)) }
            if meetup.placeName != old.placeName || meetup.address != old.address { changes.append(meetup.placeName) }
            do {
                _ = try database.updateMeetup(meetup, by: user.storedID, change: changes.isEmpty ? nil : changes.joined(separator: " · "))
                return redirect(to: Paths.meetup(try old.storedID), flash: "meetup_saved")
            } catch StorageError.full {
                errors.add("capacity", "errors.meetup_capacity_below")
                edited = nil
            }
        }
        return try renderMeetupForm(form, errors: errors, editing: old, context)
    }

    /// The meetup of `:id` when the signed-in user hosts it; 403 otherwise.
    func hostedMeetup(_ context: RequestContext) throws -> Meetup {
        let user = try context.requireUser()
        let meetup = try meetup(context)
        guard meetup.hostID == user.id else { throw HTTPError(.forbidden, message: localizer.text("meetups.errors.host_only", context.language)) }
        return meetup
    }

    func renderMeetupForm(_ form: MeetupForm, errors: FieldErrors, editing: Meetup?, _ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        return try render(
            "meetup-form", context, title: localizer.text(editing == nil ? "meetups.new_title" : "meetups.edit_title", language),
            section: .meetups, status: errors.isEmpty ? .ok : .unprocessableContent,
            [
                "action": editing.map { Paths.meetup($0.id ?? 0) + "/edit" } ?? Paths.meetups,
                "editing": editing != nil,
                "f": [
                    "title": form.title, "description": form.description, "startsAt": form.startsAt, "duration": form.duration,
                    "placeName": form.placeName, "address": form.address, "latitude": form.latitude, "longitude": form.longitude,
                    "placeNote": form.placeNote, "distance": form.distance, "capacity": form.capacity, "deadline": form.deadline,
                    "afterParty": form.afterParty, "minAge": form.minAge, "maxAge": form.maxAge, "crewOnly": form.crewOnly, "crew": form.crew,
                ] as [String: Any],
                "timeZone": localizer.timeZone.identifier,
                "hasCrew": !form.crew.isEmpty,
                "regions": options(Choices.regions, labels: "choices.region", selected: form.region, language),
                "slots": options(Meetup.TimeSlot.allCases.map(\.rawValue), labels: "meetups.slot", selected: form.timeSlot, language),
                "paces": options(Meetup.Pace.allCases.map(\.rawValue), labels: "meetups.pace", selected: form.pace, language),
                "styles": options(Meetup.Style.allCases.map(\.rawValue), labels: "meetups.style", selected: form.style, language),
                "modes": options(Meetup.SignupMode.allCases.map(\.rawValue), labels: "meetups.mode", selected: form.signupMode, language),
                "genders": options(Meetup.GenderRule.allCases.map(\.rawValue), labels: "meetups.gender", selected: form.genderRule, language),
                "jobs": Choices.jobs.map { ["value": $0, "label": localizer.text("choices.job.\($0)", language), "checked": form.jobs.contains($0)] as [String: Any] },
                "errors": errors.localized(localizer, language),
                "hasErrors": !errors.isEmpty,
            ]
        )
    }
}
