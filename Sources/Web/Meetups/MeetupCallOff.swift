import Foundation
import HTTP
import Storage

/// Calling a meetup off, for its host, until it starts: the page says who will be told and
/// asks why; the meetup then stays, marked cancelled. A meetup nobody joined may instead be
/// deleted.
struct MeetupCallOffView: PageView {
    static let template = "meetup-call-off"
    let meetup: MeetupCardView
    /// Going, waiting or asked: told, by notification, push and mail as each chose.
    let told: String
    let deletable: Bool
    let reason: String
    let error: String?
}

extension App {
    /// The longest reason a host may give, in characters.
    static let cancelReasonLength = 500

    /// `GET /meetups/:id/call-off`
    func meetupCallOffShow(_ context: RequestContext) throws -> HTTPResponse {
        try renderCallOff(try cancellableMeetup(context), reason: "", error: nil, status: .ok, context)
    }

    /// `POST /meetups/:id/call-off`: cancels it with the host's reason and tells everyone.
    func meetupCallOff(_ context: RequestContext) throws -> HTTPResponse {
        let meetup = try cancellableMeetup(context)
        let reason = (context.form["reason"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !reason.isEmpty, reason.count <= Self.cancelReasonLength, !reason.unicodeScalars.contains(where: Self.isControl) else {
            let error = localizer.text(.meetups.cancelled.reason_needed, context.language, ["count": String(Self.cancelReasonLength)])
            return try renderCallOff(meetup, reason: String(reason.prefix(Self.cancelReasonLength)), error: error, status: .unprocessableContent, context)
        }
        try storageAction(context, [.duplicate: .meetups.cancelled.refused, .forbidden: .meetups.cancelled.started]) {
            try database.meetups.cancelMeetup(id: meetup.storedID, by: meetup.hostID, reason: reason)
        }
        return redirect(to: Paths.meetup(try meetup.storedID), flash: \.meetup_called_off)
    }

    /// `POST /meetups/:id/delete`: a meetup nobody joined goes, with its talk.
    func meetupDelete(_ context: RequestContext) throws -> HTTPResponse {
        let meetup = try cancellableMeetup(context)
        let files = try storageAction(context, [.locked: .meetups.cancelled.someone_joined]) {
            try database.meetups.deleteMeetup(id: meetup.storedID, by: meetup.hostID)
        }
        media.delete(files)
        return redirect(to: Paths.meetups, flash: \.meetup_deleted)
    }

    /// The host's meetup, not yet called off nor started.
    private func cancellableMeetup(_ context: RequestContext) throws -> Meetup {
        let meetup = try hostedMeetup(context)
        if meetup.isCancelled { throw HTTPError(.conflict, message: localizer.text(.meetups.cancelled.refused, context.language)) }
        if Date() >= meetup.startsAt { throw HTTPError(.conflict, message: localizer.text(.meetups.cancelled.started, context.language)) }
        return meetup
    }

    private func renderCallOff(_ meetup: Meetup, reason: String, error: String?, status: HTTPStatus, _ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        let told = try database.meetups.participants(meetupID: meetup.storedID).count { [.accepted, .pending, .waitlisted].contains($0.status) }
        let view = MeetupCallOffView(meetup: meetupCard(meetup, language), told: localizer.count(.meetups.cancelled.told, told, language),
                                     deletable: try database.meetups.isDeletable(meetup), reason: reason, error: error)
        return page(view, context, title: localizer.text(.meetups.cancelled.page_title, language), section: .meetups, status: status)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control && scalar != "\n" && scalar != "\r" && scalar != "\t"
    }
}
