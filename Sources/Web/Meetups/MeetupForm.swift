import Foundation
import HTTP
import Storage

/// The create/edit meetup form, as typed.
struct MeetupForm {
    var title = "", description = "", startsAt = "", duration = "60", placeName = "", address = ""
    var latitude = "", longitude = "", placeNote = "", region = "", timeSlot = "afterWork", distance = ""
    var pace = "average", style = "run", capacity = "10", signupMode = "firstCome", deadline = ""
    var afterParty = false, genderRule = "any", minAge = "", maxAge = "", jobs: [String] = [], crewOnly = false
    var crew = ""

    init() {}

    init(_ form: URLEncodedForm) {
        let text = { (name: String) in (form[name] ?? "").trimmed }
        title = text("title"); description = text("description"); startsAt = text("starts_at"); duration = text("duration")
        placeName = text("place_name"); address = text("address"); latitude = text("latitude"); longitude = text("longitude")
        placeNote = text("place_note"); region = text("region"); timeSlot = text("time_slot"); distance = text("distance")
        pace = text("pace"); style = text("style"); capacity = text("capacity"); signupMode = text("signup_mode")
        deadline = text("deadline"); afterParty = form["after_party"] == "on"; genderRule = text("gender_rule")
        minAge = text("min_age"); maxAge = text("max_age"); jobs = form.values("jobs"); crewOnly = form["crew_only"] == "on"
        crew = text("crew")
    }

    init(_ meetup: Meetup, timeZone: TimeZone) {
        title = meetup.title; description = meetup.description
        startsAt = Self.local(meetup.startsAt, timeZone); duration = String(meetup.durationMinutes)
        placeName = meetup.placeName; address = meetup.address
        latitude = meetup.latitude.map { String($0) } ?? ""; longitude = meetup.longitude.map { String($0) } ?? ""
        placeNote = meetup.placeNote; region = meetup.region ?? ""; timeSlot = meetup.timeSlot.rawValue
        distance = meetup.distanceKm.map { String($0) } ?? ""; pace = meetup.pace.rawValue; style = meetup.style.rawValue
        capacity = String(meetup.capacity); signupMode = meetup.signupMode.rawValue; deadline = Self.local(meetup.deadline, timeZone)
        afterParty = meetup.afterParty; genderRule = meetup.genderRule.rawValue
        minAge = meetup.minAge.map(String.init) ?? ""; maxAge = meetup.maxAge.map(String.init) ?? ""
        jobs = meetup.jobList; crewOnly = meetup.crewOnly
    }

    /// `2026-11-23T19:00` in `timeZone`, as `<input type="datetime-local">` sends it.
    static func parseLocal(_ text: String, _ timeZone: TimeZone) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        for format in ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    static func local(_ date: Date, _ timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return formatter.string(from: date)
    }

    /// The meetup these fields describe for `host`, or the errors beside each field.
    func validate(host: User, crewID: Int64?, timeZone: TimeZone, now: Date = Date()) -> (Meetup?, FieldErrors) {
        var errors = FieldErrors()
        if title.isEmpty || title.count > 60 || title.hasControlCharacters { errors.add("title", "errors.meetup_title") }
        if description.count > 5000 || description.hasControlCharacters { errors.add("description", "errors.crew_description") }
        let start = Self.parseLocal(startsAt, timeZone)
        if start == nil { errors.add("starts_at", "errors.meetup_start") } else if start! <= now { errors.add("starts_at", "errors.meetup_past") }
        let minutes = Int(duration)
        if minutes.map({ !(10...1440).contains($0) }) ?? true { errors.add("duration", "errors.meetup_duration") }
        if placeName.isEmpty || placeName.count > 100 || placeName.hasControlCharacters { errors.add("place_name", "errors.meetup_place") }
        if address.count > 200 || address.hasControlCharacters { errors.add("address", "errors.too_long_200") }
        if placeNote.count > 200 || placeNote.hasControlCharacters { errors.add("place_note", "errors.too_long_200") }
        let lat = latitude.isEmpty ? nil : Double(latitude), lon = longitude.isEmpty ? nil : Double(longitude)
        if (!latitude.isEmpty && (lat.map { !(-90...90).contains($0) } ?? true)) || (!longitude.isEmpty && (lon.map { !(-180...180).contains($0) } ?? true))
            || (lat == nil) != (lon == nil) {
            errors.add("latitude", "errors.meetup_coordinates")
        }
        if !region.isEmpty, !Choices.regions.contains(region) { errors.add("region", "errors.choice") }
        let slot = Meetup.TimeSlot(rawValue: timeSlot), paceValue = Meetup.Pace(rawValue: pace), styleValue = Meetup.Style(rawValue: style)
        let mode = Meetup.SignupMode(rawValue: signupMode), rule = Meetup.GenderRule(rawValue: genderRule)
        if slot == nil { errors.add("time_slot", "errors.choice") }
        if paceValue == nil { errors.add("pace", "errors.choice") }
        if styleValue == nil { errors.add("style", "errors.choice") }
        if mode == nil { errors.add("signup_mode", "errors.choice") }
        if rule == nil { errors.add("gender_rule", "errors.choice") }
        if let rule, rule != .any, host.gender != rule.rawValue { errors.add("gender_rule", "errors.meetup_gender_own") }
        let km = distance.isEmpty ? nil : Double(distance)
        if !distance.isEmpty, km.map({ !(0.1...300).contains($0) }) ?? true { errors.add("distance", "errors.meetup_distance") }
        let seats = Int(capacity)
        if seats.map({ !(1...1000).contains($0) }) ?? true { errors.add("capacity", "errors.meetup_capacity") }
        let closes = deadline.isEmpty ? start : Self.parseLocal(deadline, timeZone)
        if closes == nil || (start != nil && closes! > start!) { errors.add("deadline", "errors.meetup_deadline") }
        let youngest = minAge.isEmpty ? nil : Int(minAge), oldest = maxAge.isEmpty ? nil : Int(maxAge)
        if (!minAge.isEmpty && (youngest.map { !(10...100).contains($0) } ?? true))
            || (!maxAge.isEmpty && (oldest.map { !(10...100).contains($0) } ?? true))
            || (youngest != nil && oldest != nil && youngest! > oldest!) {
            errors.add("min_age", "errors.meetup_ages")
        }
        if jobs.contains(where: { !Choices.jobs.contains($0) }) { errors.add("jobs", "errors.choice") }
        if crewOnly, crewID == nil { errors.add("crew_only", "errors.choice") }
        guard errors.isEmpty, let start, let minutes, let slot, let paceValue, let styleValue, let mode, let rule, let seats, let closes,
              let hostID = host.id else { return (nil, errors) }
        let meetup = Meetup(
            id: nil, hostID: hostID, crewID: crewID, crewOnly: crewOnly, title: title, description: description,
            descriptionHTML: MarkdownRenderer.html(description), startsAt: start, durationMinutes: minutes, placeName: placeName,
            address: address, latitude: lat, longitude: lon, placeNote: placeNote, region: region.nilIfEmpty, timeSlot: slot,
            distanceKm: km, pace: paceValue, style: styleValue, capacity: seats, signupMode: mode, deadline: closes,
            afterParty: afterParty, genderRule: rule, minAge: youngest, maxAge: oldest, jobs: jobs.joined(separator: ","),
            acceptedCount: 0, closedAt: nil, sequence: 0, createdAt: now, updatedAt: now)
        return (meetup, errors)
    }
}

import Markdown
