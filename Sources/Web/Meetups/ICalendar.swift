import Foundation
import HTTP
import Storage

/// iCalendar (RFC 5545) documents for meetups: CRLF lines folded at 75 octets, text escaped,
/// times in UTC so every client gets the same instant.
enum ICalendar {
    static func document(_ meetups: [Meetup], baseURL: String, host: String, name: String, timeZone: TimeZone) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Moim//Meetups//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
            "X-WR-CALNAME:" + escape(name), "X-WR-TIMEZONE:" + timeZone.identifier,
        ]
        for meetup in meetups {
            let id = meetup.id ?? 0
            lines += [
                "BEGIN:VEVENT",
                "UID:meetup-\(id)@\(host)",
                "DTSTAMP:" + stamp(meetup.updatedAt),
                "SEQUENCE:\(meetup.sequence)",
                "DTSTART:" + stamp(meetup.startsAt),
                "DTEND:" + stamp(meetup.endsAt),
                "SUMMARY:" + escape(meetup.title),
                "DESCRIPTION:" + escape(meetup.description),
                "LOCATION:" + escape([meetup.placeName, meetup.address].filter { !$0.isEmpty }.joined(separator: ", ")),
                "URL:\(baseURL)/meetups/\(id)",
                meetup.isCancelled ? "STATUS:CANCELLED" : "STATUS:CONFIRMED",
            ]
            if let lat = meetup.latitude, let lon = meetup.longitude { lines.append("GEO:\(lat);\(lon)") }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// `20261122T100000Z`
    static func stamp(_ date: Date) -> String {
        InternetDate.format(date).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
    }

    /// RFC 5545 §3.3.11: backslash, semicolon, comma and newline escaped.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ";", with: "\\;")
            .replacingOccurrences(of: ",", with: "\\,").replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// RFC 5545 §3.1: lines longer than 75 octets continue on lines starting with a space,
    /// never splitting a UTF-8 character.
    static func fold(_ line: String) -> String {
        var output = ""
        var count = 0
        for character in line {
            let size = String(character).utf8.count
            if count + size > 75 {
                output += "\r\n "
                count = 1
            }
            output.append(character)
            count += size
        }
        return output
    }
}

extension App {
    /// `GET /meetups/:id.ics`
    func meetupCalendar(_ context: RequestContext) throws -> HTTPResponse {
        let meetup = try meetup(context)
        return calendarResponse([meetup], name: meetup.title, context)
    }

    /// `GET /calendar/:token.ics`: the private feed of the meetups a member is going to.
    func calendarFeed(_ context: RequestContext) throws -> HTTPResponse {
        // A suspended member's calendar says nothing, as if the address were unknown.
        guard let token = context.request.parameters["token"], token.utf8.count >= 20, let user = try database.meetups.user(calendarToken: token),
              !user.isSuspended() else {
            throw HTTPError(.notFound)
        }
        let meetups = try database.meetups.meetupsGoing(userID: user.storedID, since: Date().addingTimeInterval(-30 * 86_400))
        return calendarResponse(meetups, name: "Moim · \(user.displayName)", context)
    }

    func calendarResponse(_ meetups: [Meetup], name: String, _ context: RequestContext) -> HTTPResponse {
        let site = publicURL(context)
        var response = HTTPResponse(status: .ok, contentType: "text/calendar; charset=utf-8",
                                    body: ICalendar.document(meetups, baseURL: site.origin, host: site.host, name: name, timeZone: localizer.timeZone))
        response.headers.add("Cache-Control", "private, max-age=300")
        return response
    }
}
