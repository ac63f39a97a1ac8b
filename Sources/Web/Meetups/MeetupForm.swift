import Formats
import Foundation
import Geo
import HTTP
import Storage

/// The create/edit meetup form, as typed.
struct MeetupForm {
    // One per line, with its type: the form's template reads these (`{{f.title}}`).
    var title: String = ""
    var description: String = ""
    var startsAt: String = ""
    var duration: String = "60"
    var placeName: String = ""
    var address: String = ""
    var latitude: String = ""
    var longitude: String = ""
    var placeNote: String = ""
    var region: String = ""
    var sport: String = "running"
    var distance: String = ""
    var pace: String = "average"
    var style: String = "run"
    var level: String = "intermediate"
    var gameFormat: String = "fiveOnFive"
    var ascent: String = ""
    var difficulty: String = "moderate"
    var speedGroup: String = "steady"
    var capacity: String = "10"
    /// Pace groups, one per line: "5:00 /km, 10" or "5:00 /km, 10, mina" (its leader).
    var groups: String = ""
    var signupMode: String = "firstCome"
    var deadline: String = ""
    var afterParty: Bool = false
    var genderRule: String = "any"
    var minAge: String = ""
    var maxAge: String = ""
    var jobs: [String] = []
    var workplaceOnly: Bool = false
    var crewOnly: Bool = false
    var crew: String = ""

    init() {}

    init(_ form: URLEncodedForm) {
        let text = { (name: String) in (form[name] ?? "").trimmed }
        title = text("title"); description = text("description"); startsAt = text("starts_at"); duration = text("duration")
        placeName = text("place_name"); address = text("address"); latitude = text("latitude"); longitude = text("longitude")
        placeNote = text("place_note"); region = text("region"); distance = text("distance")
        pace = text("pace"); style = text("style"); capacity = text("capacity"); signupMode = text("signup_mode")
        // A form from before meetups had sports is a run's.
        sport = form["sport"] == nil ? "running" : text("sport")
        level = text("level"); gameFormat = text("game_format"); ascent = text("ascent"); difficulty = text("difficulty")
        speedGroup = text("speed_group")
        deadline = text("deadline"); afterParty = form["after_party"] == "on"; genderRule = text("gender_rule")
        minAge = text("min_age"); maxAge = text("max_age"); jobs = form.values("jobs"); crewOnly = form["crew_only"] == "on"
        workplaceOnly = form["workplace_only"] == "on"
        crew = text("crew")
        groups = (form["groups"] ?? "").trimmed
    }

    /// What was typed, with the meeting point a tap on the map picked.
    init(_ form: URLEncodedForm, picked action: MapPicker.Action) {
        self.init(form)
        if case .pick(let point) = action {
            latitude = String(format: "%.6f", point.latitude)
            longitude = String(format: "%.6f", point.longitude)
        }
    }

    /// The meeting point typed, when both numbers are valid.
    var coordinate: Coordinate? {
        guard let latitude = Checked.decimal(latitude, in: -90...90), let longitude = Checked.decimal(longitude, in: -180...180) else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    init(_ meetup: Meetup, timeZone: TimeZone) {
        title = meetup.title; description = meetup.description
        startsAt = LocalDateTime.text(meetup.startsAt, timeZone); duration = String(meetup.durationMinutes)
        placeName = meetup.placeName; address = meetup.address
        latitude = meetup.latitude.map { String($0) } ?? ""; longitude = meetup.longitude.map { String($0) } ?? ""
        placeNote = meetup.placeNote; region = meetup.region ?? ""
        distance = meetup.distanceKm.map { String($0) } ?? ""; pace = meetup.pace.rawValue; style = meetup.style.rawValue
        sport = meetup.sport.rawValue
        level = meetup.level?.rawValue ?? level; gameFormat = meetup.gameFormat?.rawValue ?? gameFormat
        ascent = meetup.ascentMeters.map(String.init) ?? ""; difficulty = meetup.difficulty?.rawValue ?? difficulty
        speedGroup = meetup.speedGroup?.rawValue ?? speedGroup
        capacity = String(meetup.capacity); signupMode = meetup.signupMode.rawValue; deadline = LocalDateTime.text(meetup.deadline, timeZone)
        afterParty = meetup.afterParty; genderRule = meetup.genderRule.rawValue
        minAge = meetup.minAge.map(String.init) ?? ""; maxAge = meetup.maxAge.map(String.init) ?? ""
        jobs = meetup.jobList; crewOnly = meetup.crewOnly; workplaceOnly = meetup.workplaceOnly
    }

    /// The meetup these fields describe for `host`, or the errors beside each field.
    /// The groups typed, or nil if a line is not "label, capacity[, leader]" (at most eight,
    /// labels of 1 to 20 characters, capacities of 1 to 1,000).
    static func paceGroups(_ text: String) -> [(label: String, capacity: Int, leader: String?)]? {
        let lines = text.split(whereSeparator: \.isNewline).map { String($0).trimmed }.filter { !$0.isEmpty }
        guard lines.count <= 8 else { return nil }
        var groups: [(label: String, capacity: Int, leader: String?)] = []
        for line in lines {
            let parts = line.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmed }
            guard (2...3).contains(parts.count), parts[0].isName(1, 20), let capacity = Checked.integer(parts[1], in: 1...1000) else { return nil }
            let leader = parts.count == 3 ? String(parts[2].drop { $0 == "@" }) : nil
            groups.append((parts[0], capacity, leader.flatMap { $0.isEmpty ? nil : $0 }))
        }
        return groups
    }

    func validate(host: User, crewID: Int64?, timeZone: TimeZone, now: Date = Date()) -> (Meetup?, FieldErrors) {
        var errors = FieldErrors()
        if !title.isName(1, 60) { errors.add("title", .errors.meetup_title) }
        if !description.fits(0, 5000) { errors.add("description", .errors.crew_description) }
        let start = Checked.localDateTime(startsAt, in: timeZone)
        if let start { if start <= now { errors.add("starts_at", .errors.meetup_past) } } else { errors.add("starts_at", .errors.meetup_start) }
        let minutes = Checked.integer(duration, in: 10...1440)
        if minutes == nil { errors.add("duration", .errors.meetup_duration) }
        if !placeName.isName(1, 100) { errors.add("place_name", .errors.meetup_place) }
        if !address.fits(0, 200) { errors.add("address", .errors.too_long_200) }
        if !placeNote.fits(0, 200) { errors.add("place_note", .errors.too_long_200) }
        let lat = Checked.decimal(latitude, in: -90...90), lon = Checked.decimal(longitude, in: -180...180)
        if (!latitude.isEmpty && lat == nil) || (!longitude.isEmpty && lon == nil) || (lat == nil) != (lon == nil) {
            errors.add("latitude", .errors.meetup_coordinates)
        }
        if !region.isEmpty, !Choices.regions.contains(region) { errors.add("region", .errors.choice) }
        // The slot is the start's, never a separate choice that could say otherwise.
        let slot = start.map { Meetup.TimeSlot(startingAt: $0, in: timeZone) }
        let mode = Meetup.SignupMode(rawValue: signupMode), rule = Meetup.GenderRule(rawValue: genderRule)
        // The sport's own details, and only those: a basketball game states no pace.
        let sportValue = Meetup.Sport(rawValue: sport)
        if sportValue == nil { errors.add("sport", .errors.choice) }
        let running = sportValue?.hasPace == true
        let paceValue = running ? Meetup.Pace(rawValue: pace) : .average, styleValue = running ? Meetup.Style(rawValue: style) : .run
        if paceValue == nil { errors.add("pace", .errors.choice) }
        if styleValue == nil { errors.add("style", .errors.choice) }
        let levelValue = sportValue == .basketball ? Meetup.Level(rawValue: level) : nil
        let formatValue = sportValue == .basketball ? Meetup.GameFormat(rawValue: gameFormat) : nil
        if sportValue == .basketball, levelValue == nil { errors.add("level", .errors.choice) }
        if sportValue == .basketball, formatValue == nil { errors.add("game_format", .errors.choice) }
        let difficultyValue = sportValue == .hiking ? Meetup.Difficulty(rawValue: difficulty) : nil
        if sportValue == .hiking, difficultyValue == nil { errors.add("difficulty", .errors.choice) }
        let ascentValue = sportValue == .hiking && !ascent.isEmpty ? Checked.integer(ascent, in: 0...9000) : nil
        if sportValue == .hiking, !ascent.isEmpty, ascentValue == nil { errors.add("ascent", .errors.meetup_ascent) }
        let speedValue = sportValue == .cycling ? Meetup.SpeedGroup(rawValue: speedGroup) : nil
        if sportValue == .cycling, speedValue == nil { errors.add("speed_group", .errors.choice) }
        if mode == nil { errors.add("signup_mode", .errors.choice) }
        if rule == nil { errors.add("gender_rule", .errors.choice) }
        if let rule, rule != .any, host.gender != rule.rawValue { errors.add("gender_rule", .errors.meetup_gender_own) }
        let km = sportValue?.hasDistance == false ? nil : Checked.decimal(distance, in: 0.1...300)
        if sportValue?.hasDistance != false, !distance.isEmpty, km == nil { errors.add("distance", .errors.meetup_distance) }
        let parsedGroups = Self.paceGroups(groups)
        if parsedGroups == nil { errors.add("groups", .errors.meetup_groups) }
        // With pace groups, the meetup holds what they hold together.
        let seats = parsedGroups.flatMap { $0.isEmpty ? nil : $0.reduce(0) { $0 + $1.capacity } } ?? Checked.integer(capacity, in: 1...1000)
        if seats == nil || seats.map({ $0 > 1000 }) == true { errors.add("capacity", .errors.meetup_capacity) }
        let closes = deadline.isEmpty ? start : Checked.localDateTime(deadline, in: timeZone)
        if closes == nil || (start.flatMap { start in closes.map { $0 > start } } ?? false) { errors.add("deadline", .errors.meetup_deadline) }
        // A lottery needs a moment to draw at, before the start.
        if mode == .lottery, deadline.isEmpty { errors.add("deadline", .errors.lottery_deadline) }
        let youngest = Checked.integer(minAge, in: 10...100), oldest = Checked.integer(maxAge, in: 10...100)
        if (!minAge.isEmpty && youngest == nil) || (!maxAge.isEmpty && oldest == nil)
            || (youngest.flatMap { young in oldest.map { young > $0 } } ?? false) {
            errors.add("min_age", .errors.meetup_ages)
        }
        if jobs.contains(where: { !Choices.jobs.contains($0) }) { errors.add("jobs", .errors.choice) }
        if crewOnly, crewID == nil { errors.add("crew_only", .errors.choice) }
        guard errors.isEmpty, let start, let minutes, let slot, let sportValue, let paceValue, let styleValue, let mode, let rule, let seats, let closes,
              let hostID = host.id else { return (nil, errors) }
        var meetup = Meetup(
            id: nil, hostID: hostID, crewID: crewID, crewOnly: crewOnly, title: title, description: description,
            descriptionHTML: MarkdownRenderer.html(description), startsAt: start, durationMinutes: minutes, placeName: placeName,
            address: address, latitude: lat, longitude: lon, placeNote: placeNote, region: region.nilIfEmpty, timeSlot: slot,
            distanceKm: km, pace: paceValue, style: styleValue, capacity: seats, signupMode: mode, deadline: closes,
            afterParty: afterParty, genderRule: rule, minAge: youngest, maxAge: oldest, jobs: jobs.joined(separator: ","),
            acceptedCount: 0, closedAt: nil, sequence: 0, createdAt: now, updatedAt: now)
        meetup.workplaceOnly = workplaceOnly
        meetup.sport = sportValue
        (meetup.level, meetup.gameFormat) = (levelValue, formatValue)
        (meetup.ascentMeters, meetup.difficulty) = (ascentValue, difficultyValue)
        meetup.speedGroup = speedValue
        return (meetup, errors)
    }
}

import Markdown
