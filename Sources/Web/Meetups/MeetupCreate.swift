import Formats
import Foundation
import Geo
import HTTP
import Storage

extension App {
    /// `GET /meetups/new` (`?crew=slug` to host it for a crew)
    func meetupNew(_ context: RequestContext) throws -> HTTPResponse {
        _ = try context.requireUser()
        var form = MeetupForm()
        form.crew = context.form["crew"] ?? ""
        // "Copy this meetup" (`?copy=` one of the host's): everything as it was set, on the same
        // weekday and time of a week to come.
        if let id = context.form["copy"].flatMap(Checked.id), let original = try database.meetups.meetup(id: id), original.hostID == context.user?.id {
            let week: TimeInterval = 7 * 86_400
            var moved = original
            // Weeks on from the original, to the first of its weekdays still to come.
            let behind = Date().timeIntervalSince(original.startsAt) / week
            let ahead = behind < 0 ? 1 : Checked.rounded(behind.rounded(.down) + 1, in: 1...1_000) ?? 1_000
            moved.startsAt = original.startsAt.addingTimeInterval(week * Double(ahead))
            moved.deadline = original.deadline.addingTimeInterval(week * Double(ahead))
            form = MeetupForm(moved, timeZone: localizer.timeZone)
            form.groups = try database.meetups.paceGroups(meetupID: id).map { "\($0.label), \($0.capacity)" }.joined(separator: "\n")
            form.crew = try original.crewID.flatMap { try database.crews.crew(id: $0)?.slug } ?? ""
        }
        // A crew's meetup is of the crew's sport, to begin with.
        if !form.crew.isEmpty, let crew = try database.crews.crew(slug: form.crew) { form.sport = crew.sport.rawValue }
        return renderMeetupForm(form, errors: FieldErrors(), editing: nil, context)
    }

    /// `POST /meetups`
    func meetupCreate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        if let moved = MapPicker.action(in: context.form) {
            return renderMeetupForm(MeetupForm(context.form, picked: moved.action), errors: FieldErrors(), editing: nil, context, picker: moved.picker)
        }
        try requireCanPost(user, .meetups, context)
        let form = MeetupForm(context.form)
        let crew = try form.crew.isEmpty ? nil : database.crews.crew(slug: form.crew)
        let (validated, errors) = form.validate(host: user, crewID: crew?.id, timeZone: localizer.timeZone)
        guard var meetup = validated else { return renderMeetupForm(form, errors: errors, editing: nil, context) }
        if meetup.signupMode == .lottery { (meetup.lotterySeed, meetup.lotteryCommitment) = Lottery.seed() }
        guard let groups = try paceGroups(form) else {
            var errors = FieldErrors()
            errors.add("groups", .errors.meetup_groups_leader)
            return renderMeetupForm(form, errors: errors, editing: nil, context)
        }
        let created = try storageAction(context) { try database.meetups.createMeetup(meetup, groups: groups) }
        return redirect(to: Paths.meetup(try created.storedID), flash: \.meetup_created)
    }

    /// `GET /meetups/:id/edit`: the host's form.
    func meetupEdit(_ context: RequestContext) throws -> HTTPResponse {
        let meetup = try editableMeetup(context)
        var form = MeetupForm(meetup, timeZone: localizer.timeZone)
        form.groups = try database.meetups.paceGroups(meetupID: meetup.storedID).map { group in
            [group.label, String(group.capacity), try group.leaderID.flatMap { try database.accounts.user(id: $0)?.username }]
                .compactMap { $0 }.joined(separator: ", ")
        }.joined(separator: "\n")
        return renderMeetupForm(form, errors: FieldErrors(), editing: meetup, context)
    }

    /// `POST /meetups/:id/edit`: saves, and tells participants when the time or place changed.
    func meetupUpdate(_ context: RequestContext) throws -> HTTPResponse {
        let old = try editableMeetup(context)
        let user = try context.requireUser()
        if let moved = MapPicker.action(in: context.form) {
            return renderMeetupForm(MeetupForm(context.form, picked: moved.action), errors: FieldErrors(), editing: old, context, picker: moved.picker)
        }
        let form = MeetupForm(context.form)
        var (edited, errors) = form.validate(host: user, crewID: old.crewID, timeZone: localizer.timeZone)
        // Once people have applied, the way places are given stays the same.
        if let edited, edited.signupMode != old.signupMode, try !database.meetups.participants(meetupID: old.storedID).isEmpty {
            errors.add("signup_mode", .errors.meetup_mode_locked)
        }
        if errors.isEmpty, var meetup = edited {
            meetup.id = old.id
            if meetup.signupMode == .lottery {
                (meetup.lotterySeed, meetup.lotteryCommitment) = old.lotterySeed.map { ($0, old.lotteryCommitment) } ?? Lottery.seed()
            }
            var changes: [String] = []
            if meetup.startsAt != old.startsAt { changes.append(localizer.dateTime(meetup.startsAt, context.language)) }
            if meetup.placeName != old.placeName || meetup.address != old.address { changes.append(meetup.placeName) }
            do {
                // Moved by more than half an hour, or to another place: people going confirm again.
                let moved = abs(meetup.startsAt.timeIntervalSince(old.startsAt)) > 30 * 60
                let elsewhere = meetup.placeName != old.placeName || meetup.address != old.address
                    || meetup.latitude != old.latitude || meetup.longitude != old.longitude
                guard let groups = try paceGroups(form) else {
                    errors.add("groups", .errors.meetup_groups_leader)
                    return renderMeetupForm(form, errors: errors, editing: old, context)
                }
                _ = try database.meetups.updateMeetup(meetup, by: user.storedID, change: changes.isEmpty ? nil : changes.joined(separator: " · "),
                                              reconfirm: moved || elsewhere, groups: groups)
                return redirect(to: Paths.meetup(try old.storedID), flash: \.meetup_saved)
            } catch StorageError.full {
                errors.add("capacity", .errors.meetup_capacity_below)
                edited = nil
            } catch StorageError.locked {
                errors.add("groups", .errors.meetup_groups_locked)
                edited = nil
            }
        }
        return renderMeetupForm(form, errors: errors, editing: old, context)
    }

    /// The meetup of `:id` when the signed-in user hosts it; 403 otherwise.
    func hostedMeetup(_ context: RequestContext) throws -> Meetup {
        let user = try context.requireUser()
        let meetup = try meetup(context)
        guard meetup.hostID == user.id else { throw HTTPError(.forbidden, message: localizer.text(.meetups.errors.host_only, context.language)) }
        return meetup
    }

    /// The host's meetup, while it can still change: a meetup called off stays as it was.
    private func editableMeetup(_ context: RequestContext) throws -> Meetup {
        let meetup = try hostedMeetup(context)
        if meetup.isCancelled { throw HTTPError(.conflict, message: localizer.text(.meetups.cancelled.refused, context.language)) }
        return meetup
    }

    func renderMeetupForm(_ form: MeetupForm, errors: FieldErrors, editing: Meetup?, _ context: RequestContext, picker: MapPicker? = nil) -> HTTPResponse {
        let language = context.language
        let point = form.coordinate
        let view = MeetupFormView(
            action: editing.map { Paths.meetup($0.id ?? 0) + "/edit" } ?? Paths.meetups,
            editing: editing != nil,
            f: form,
            timeZone: Formatters.offsetName(localizer.timeZone, at: Date()),
            regions: choices(Choices.regions, labels: TextKey.choices.region.named, selected: form.region, language),
            sports: choices(Meetup.Sport.allCases.map(\.rawValue), labels: TextKey.crews.sport.named, selected: form.sport, language),
            paces: choices(Meetup.Pace.allCases.map(\.rawValue), labels: TextKey.meetups.pace.named, selected: form.pace, language),
            levels: choices(Meetup.Level.allCases.map(\.rawValue), labels: TextKey.meetups.level.named, selected: form.level, language),
            formats: choices(Meetup.GameFormat.allCases.map(\.rawValue), labels: TextKey.meetups.format.named, selected: form.gameFormat, language),
            difficulties: choices(Meetup.Difficulty.allCases.map(\.rawValue), labels: TextKey.meetups.difficulty.named, selected: form.difficulty, language),
            speeds: choices(Meetup.SpeedGroup.allCases.map(\.rawValue), labels: TextKey.meetups.speed.named, selected: form.speedGroup, language),
            styles: choices(Meetup.Style.allCases.map(\.rawValue), labels: TextKey.meetups.style.named, selected: form.style, language),
            modes: choices(Meetup.SignupMode.allCases.map(\.rawValue), labels: TextKey.meetups.mode.named, selected: form.signupMode, language),
            genders: choices(Meetup.GenderRule.allCases.map(\.rawValue), labels: TextKey.meetups.gender.named, selected: form.genderRule, language),
            jobs: Choices.jobs.map { Choice(value: $0, label: localizer.text(TextKey.choices.job.named($0), language, otherwise: $0), selected: form.jobs.contains($0)) },
            offersWorkplaceRule: mailEnabled || form.workplaceOnly,
            errors: errors.localized(localizer, language),
            daylight: localizer.daylight(daylight(of: form), language),
            picker: configuration.tiles.map { tiles in
                (picker ?? meetupPicker(form, host: context.user)).view(pin: point, label: localizer.text(.maps.pick, language), tiles: tiles)
            },
            pinnedAt: point.map { localizer.text(.maps.pin_here, language, ["point": $0.text.replacingOccurrences(of: ",", with: ", ")]) })
        return page(view, context, title: localizer.text(editing == nil ? .meetups.new_title : .meetups.edit_title, language),
                    section: .meetups, status: errors.isEmpty ? .ok : .unprocessableContent)
    }
}

extension App {
    /// The form's pace groups with their leaders found; nil when a leader is not a member.
    func paceGroups(_ form: MeetupForm) throws -> [PaceGroup]? {
        var groups: [PaceGroup] = []
        for group in MeetupForm.paceGroups(form.groups) ?? [] {
            var leaderID: Int64?
            if let name = group.leader {
                guard let leader = try database.accounts.user(username: name) else { return nil }
                leaderID = leader.id
            }
            groups.append(PaceGroup(label: group.label, capacity: group.capacity, leaderID: leaderID))
        }
        return groups
    }

    /// Where the meetup form's map opens: the point typed, else the crew's or the host's last
    /// meeting point, else the region's centre, else Seoul.
    private func meetupPicker(_ form: MeetupForm, host: User?) -> MapPicker {
        if let point = form.coordinate { return MapPicker(around: point, zoom: 16) }
        let crew = try? form.crew.isEmpty ? nil : database.crews.crew(slug: form.crew)
        if let host, let last = try? database.meetups.lastMeetupPoint(crewID: crew?.id, hostID: host.storedID) {
            return MapPicker(around: last, zoom: 14)
        }
        if let center = RegionCenters.center(form.region.nilIfEmpty ?? crew?.region ?? host?.region) { return MapPicker(around: center, zoom: 12) }
        return MapPicker(around: RegionCenters.fallback, zoom: 11)
    }

    /// The light for the time and place typed in the form, when both are complete.
    private func daylight(of form: MeetupForm) -> Daylight.Warning? {
        guard let start = Checked.localDateTime(form.startsAt, in: localizer.timeZone),
              let minutes = Checked.integer(form.duration, in: 10...1440) else { return nil }
        return Daylight.warning(start: start, end: start.addingTimeInterval(Double(minutes) * 60),
                                latitude: Checked.decimal(form.latitude, in: -90...90), longitude: Checked.decimal(form.longitude, in: -180...180))
    }
}

/// Organising or editing a meetup; what was typed comes back after an error.
struct MeetupFormView: PageView {
    static let template = "meetup-form"
    let action: String
    let editing: Bool
    /// What was typed.
    let f: MeetupForm
    let timeZone: String
    /// A meetup of a crew can be for its members only.
    var hasCrew: Bool { !f.crew.isEmpty }
    let regions: [Choice]
    let sports: [Choice]
    let paces: [Choice]
    let levels: [Choice]
    let formats: [Choice]
    let difficulties: [Choice]
    let speeds: [Choice]
    let styles: [Choice]
    let modes: [Choice]
    let genders: [Choice]
    /// Checkboxes: jobs the meetup is limited to.
    let jobs: [Choice]
    /// Workplaces are verified by mail: a site without mail cannot offer the rule (kept when set).
    let offersWorkplaceRule: Bool
    /// Each field's error message, by field name.
    let errors: [String: String]
    var hasErrors: Bool { !errors.isEmpty }
    /// "It starts before sunrise (7:43 AM): bring a light."
    let daylight: String?
    /// A map to set the meeting point by tapping, when the site has map tiles.
    let picker: MapPickerView?
    /// "The pin is at 37.528300, 126.932700."
    let pinnedAt: String?
}
