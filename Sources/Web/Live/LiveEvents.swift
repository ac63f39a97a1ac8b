import Formats
import Foundation
import HTTP
import Storage

extension App {
    /// `GET /events`: a signed-in browser's event stream (Server-Sent Events). Always its
    /// member's unread count; with `meetup=ID` that meetup's state and, for those who may read
    /// it, its talk; with `crew=ID` the crew's guestbook, for its members; with `room=ID` a
    /// room's messages, for its members, and always the count of messages waiting. Messages after
    /// `Last-Event-ID` (on a reconnect) or `after` (the last one the page showed) come first.
    func liveEvents(_ context: RequestContext) throws -> HTTPResponse {
        guard let user = context.user, let session = context.session, let sessionID = session.id else {
            throw HTTPError(.unauthorized, message: "Sign in to receive updates.")
        }
        guard !user.isSilenced() else { throw HTTPError(.forbidden) }
        let query = context.request.query
        let page: LiveStreams.Page?
        var newest: Int64 = 0
        if let meetup = query["meetup"] {
            guard let id = Int64(meetup), id > 0, try database.meetups.meetup(id: id) != nil else { throw HTTPError(.notFound) }
            page = .meetup(id)
            newest = try database.live.lastTalkID(meetupID: id)
        } else if let room = query["room"] {
            guard let id = Checked.id(room), let (found, _) = try database.talk.room(id: id, for: try user.storedID) else { throw HTTPError(.notFound) }
            page = .room(id)
            newest = found.lastMessageID
        } else if let crew = query["crew"] {
            guard let id = Int64(crew), id > 0, try database.crews.crew(id: id) != nil else { throw HTTPError(.notFound) }
            page = .crew(id)
            newest = try database.live.lastGuestbookID(crewID: id)
        } else {
            page = nil
        }
        // Where the browser is in the thread: what it last received, else what the page showed,
        // else now. Never past the newest, so a made-up number cannot hide what comes next.
        let given = context.request.headers["last-event-id"] ?? query["after"]
        let cursor = given.flatMap { Int64($0) }.map { min(max($0, 0), newest) } ?? newest
        guard live.count(userID: try user.storedID) < LiveStreams.perMember else {
            throw HTTPError(.tooManyRequests, message: "Too many open pages are following updates; close some and try again.",
                            headers: ["Retry-After": "30"])
        }
        let userID = try user.storedID, language = context.language
        return .stream(headers: HTTPHeaders([
            ("Content-Type", "text/event-stream; charset=utf-8"),
            ("Cache-Control", "no-store"),
            // nginx passes each event on at once rather than filling its buffer first.
            ("X-Accel-Buffering", "no"),
        ])) { [live] stream in
            // How long a browser waits before reconnecting after the stream drops.
            stream.send(Array("retry: 3000\n\n".utf8))
            let listener = LiveStreams.Listener(stream: stream, userID: userID, sessionID: sessionID, language: language, page: page, cursor: cursor)
            if !live.add(listener) { stream.close() }
        }
    }
}

/// The text of the events, in the listener's language.
struct LiveRendering: Sendable {
    let localizer: Localizer

    /// What a meetup's page shows that may change while it is open.
    func meetupState(_ meetup: Meetup, waitlist: Int, application: (status: ApplicationStatus, waitlistPlace: Int?, confirmBy: Date?)?,
                     viewerID: Int64, now: Date, language: Language) -> MeetupLiveState {
        var going = localizer.text(.meetups.going_count, language, ["count": String(meetup.acceptedCount), "capacity": String(meetup.capacity)])
        if waitlist > 0 { going += " · " + localizer.text(.meetups.waitlist, language) + " " + String(waitlist) }
        return MeetupLiveState(going: going, version: MeetupLiveState.version(meetup, application: application, viewerID: viewerID, now: now))
    }

    func bellLabel(_ count: Int, _ language: Language) -> String {
        localizer.text(.notifications.title, language) + (count > 0 ? " (\(count))" : "")
    }

    /// "Photo 2 by Mina", a photo's text for those who do not see it.
    func photoAlt(_ number: Int, name: String, _ language: Language) -> String {
        localizer.text(.posts.photo_alt, language, ["number": String(number), "name": name])
    }

    func moment(_ date: Date, _ language: Language) -> Moment {
        localizer.moment(date, language)
    }
}

/// A meetup's page as far as its live updates go: the line of places taken and waiting,
/// updated in place, and a version of everything else the viewer would need to reload for.
struct MeetupLiveState: Equatable, Sendable {
    /// "7/10 going · waitlist: 2"
    let going: String
    /// Changes when the time, the place, the state or the viewer's standing does.
    let version: String

    static func version(_ meetup: Meetup, application: (status: ApplicationStatus, waitlistPlace: Int?, confirmBy: Date?)?,
                        viewerID: Int64, now: Date) -> String {
        let standing = meetup.hostID == viewerID ? "host" : application.map { "\($0.status.rawValue)\($0.waitlistPlace ?? 0)\($0.confirmBy == nil ? "" : "c")" } ?? "-"
        let state = [meetup.closedAt != nil || meetup.isClosed(at: now), meetup.drawnAt != nil, meetup.hiddenAt != nil,
                     meetup.isCheckInOpen(at: now), now >= meetup.startsAt, now >= meetup.endsAt].map { $0 ? "1" : "0" }.joined()
        return "\(meetup.sequence).\(state).\(standing)"
    }
}

/// Events in the `text/event-stream` format: an `id` (the last message of the page's thread
/// the browser has, which it sends back as `Last-Event-ID`), a name and one line of JSON
/// (strings in JSON never hold a raw line break). The script puts their text in as text.
enum LiveEvent {
    private struct Message: Encodable {
        let id: Int64
        let author: String
        let url: String
        let text: String
        let iso: String
        let when: String
        let exact: String
    }

    /// A room's message as the room page shows it (`talk-message`), rendered on the server.
    private struct RoomMessage: Encodable {
        let id: Int64
        let html: String
    }

    private struct Bell: Encodable {
        let count: Int
        let label: String
    }

    private struct Waiting: Encodable {
        let count: Int
    }

    private struct MeetupState: Encodable {
        let going: String
        let version: String
    }

    static func message(_ message: LiveMessage, render: LiveRendering, language: Language) -> [UInt8] {
        let moment = render.moment(message.createdAt, language)
        return event("message", id: message.id, Message(
            id: message.id, author: message.authorName, url: Paths.profile(message.authorUsername), text: message.body,
            iso: moment.iso, when: moment.text, exact: moment.exact))
    }

    /// A room's new message (`message`) or one edited or deleted (`edit`), as its `<li>`.
    static func roomMessage(_ name: String, data: [UInt8], cursor: Int64) -> [UInt8] {
        frame(name, id: cursor, data)
    }

    /// A room message's line of JSON, made once for everyone it goes to.
    static func roomMessageData(id: Int64, html: String) -> [UInt8] {
        json(RoomMessage(id: id, html: html))
    }

    static func bell(_ count: Int, cursor: Int64, render: LiveRendering, language: Language) -> [UInt8] {
        event("bell", id: cursor, Bell(count: count, label: render.bellLabel(count, language)))
    }

    /// The messages waiting in the member's rooms, for the header's count.
    static func messagesWaiting(_ count: Int, cursor: Int64) -> [UInt8] {
        event("talk", id: cursor, Waiting(count: count))
    }

    static func meetup(_ state: MeetupLiveState, cursor: Int64) -> [UInt8] {
        event("meetup", id: cursor, MeetupState(going: state.going, version: state.version))
    }

    private static func event(_ name: String, id: Int64, _ data: some Encodable) -> [UInt8] {
        frame(name, id: id, json(data))
    }

    private static func json(_ data: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return Array((try? encoder.encode(data)) ?? Data("{}".utf8))
    }

    private static func frame(_ name: String, id: Int64, _ json: [UInt8]) -> [UInt8] {
        Array("id: \(id)\nevent: \(name)\ndata: ".utf8) + json + Array("\n\n".utf8)
    }
    }
