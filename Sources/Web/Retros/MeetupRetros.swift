import Formats
import Foundation
import HTTP
import Storage

/// A meetup's retrospective: after it ends, its host and the people who attended leave keyword
/// feedback for each other, revealed when the host said; it lands in each one's archive.
struct MeetupRetroPageView: PageView {
    static let template = "meetup-retro"
    let meetup: MeetupLinkView
    /// The host's form to open it, while there is none.
    let canCreate: Bool
    let createURL: String
    let newName: String
    let newStart: String
    let timeZone: String
    let tab: CrewRetrosTab?
    var waiting: Bool { tab == nil && !canCreate }
}

extension App {
    /// `GET /meetups/:id/retro`
    func meetupRetroShow(_ context: RequestContext) throws -> HTTPResponse {
        let (meetup, user) = try retroMeetup(context)
        let base = Paths.meetupRetro(try meetup.storedID)
        let retro = try database.retros.retro(meetupID: meetup.storedID)
        let isHost = meetup.hostID == user.id
        let view = MeetupRetroPageView(
            meetup: MeetupLinkView(title: meetup.title, url: Paths.meetup(try meetup.storedID)),
            canCreate: retro == nil && isHost, createURL: base, newName: String(meetup.title.prefix(60)),
            newStart: LocalDateTime.text(Date().addingTimeInterval(2 * 86_400), localizer.timeZone),
            timeZone: Formatters.offsetName(localizer.timeZone, at: Date()),
            tab: try retro.map { try retroTab($0, base: base, manages: isHost, user: user, context) })
        return page(view, context, title: localizer.text(.retros.meetup_title, context.language), section: .meetups)
    }

    /// `POST /meetups/:id/retro`: the host opens it, once the meetup has ended.
    func meetupRetroCreate(_ context: RequestContext) throws -> HTTPResponse {
        let (meetup, user) = try retroMeetup(context)
        let name = (context.form["name"] ?? "").trimmed
        guard name.isName(1, 60),
              let start = Checked.localDateTime((context.form["starts_at"] ?? "").trimmed, in: localizer.timeZone)
        else { throw HTTPError(.unprocessableContent, message: localizer.text(.retros.errors.form, context.language)) }
        _ = try storageAction(context) { try database.retros.createRetro(meetupID: meetup.storedID, by: user.storedID, name: name, startsAt: start) }
        return redirect(to: Paths.meetupRetro(try meetup.storedID), flash: \.retro_created)
    }

    /// `POST /meetups/:id/retro/feedback`
    func meetupFeedbackCreate(_ context: RequestContext) throws -> HTTPResponse {
        let (meetup, user) = try retroMeetup(context)
        guard let retro = try database.retros.retro(meetupID: meetup.storedID) else { throw HTTPError(.notFound) }
        return try saveFeedback(retro, base: Paths.meetupRetro(try meetup.storedID), user: user, context)
    }

    /// `POST /meetups/:id/retro/feedback/:fid`
    func meetupFeedbackUpdate(_ context: RequestContext) throws -> HTTPResponse {
        let (meetup, user) = try retroMeetup(context)
        return try changeFeedback(base: Paths.meetupRetro(try meetup.storedID), user: user, context)
    }

    /// `POST /meetups/:id/retro/close`: the host, once it has started.
    func meetupRetroClose(_ context: RequestContext) throws -> HTTPResponse {
        let (meetup, user) = try retroMeetup(context)
        guard let retro = try database.retros.retro(meetupID: meetup.storedID) else { throw HTTPError(.notFound) }
        try storageAction(context) { try database.retros.closeRetro(id: retro.storedID, by: user.storedID) }
        return redirect(to: Paths.meetupRetro(try meetup.storedID), flash: \.retro_closed)
    }

    /// The meetup, for its host or someone who attended; others get 403.
    private func retroMeetup(_ context: RequestContext) throws -> (Meetup, User) {
        let user = try context.requireUser()
        let meetup = try meetup(context)
        guard try database.retros.takesPart(inRetroOfMeetup: meetup.storedID, userID: user.storedID) else {
            throw HTTPError(.forbidden, message: localizer.text(.retros.errors.attendees_only, context.language))
        }
        return (meetup, user)
    }
}
