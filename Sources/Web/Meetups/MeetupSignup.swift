import Foundation
import HTTP
import Storage

extension App {
    /// `POST /meetups/:id/apply`: takes a place, joins the waitlist or asks the host. A profile
    /// missing what the rules need leads to settings; unmet rules are a 403 saying which.
    func meetupApply(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let meetup = try meetup(context)
        let language = context.language
        let group = context.form["group"].flatMap(Checked.id)
        let result = try storageAction(context) { try database.apply(meetupID: meetup.storedID, userID: user.storedID, groupID: group) }
        switch result {
        case .accepted: return redirect(to: Paths.meetup(try meetup.storedID), flash: "meetup_accepted")
        case .pending: return redirect(to: Paths.meetup(try meetup.storedID), flash: "meetup_pending")
        case .waitlisted: return redirect(to: Paths.meetup(try meetup.storedID), flash: "meetup_waitlisted")
        case .alreadyApplied: return redirect(to: Paths.meetup(try meetup.storedID))
        case .closed: throw HTTPError(.conflict, message: localizer.text("meetups.errors.closed", language))
        case .chooseGroup: throw HTTPError(.unprocessableContent, message: localizer.text("meetups.groups.choose", language))
        case .notEligible(let reasons) where reasons.contains(where: \.needsProfile):
            let back = Paths.settings + "?for=" + PercentEncoding.encode(Paths.meetup(try meetup.storedID))
            if reasons.contains(.missingWorkplace) { return redirect(to: back + "#workplace", flash: "workplace_needed") }
            return redirect(to: back, flash: "profile_needed")
        case .notEligible(let reasons):
            let why = reasons.map { localizer.text("meetups.why.\($0.rawValue)", language) }.joined(separator: " ")
            throw HTTPError(.forbidden, message: why)
        }
    }

    /// `POST /meetups/:id/cancel`
    func meetupCancel(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let meetup = try meetup(context)
        try storageAction(context) { try database.cancelApplication(meetupID: meetup.storedID, userID: user.storedID) }
        return redirect(to: Paths.meetup(try meetup.storedID), flash: "meetup_cancelled")
    }

    /// `POST /meetups/:id/confirm`: keeps a place after the host moved the meetup.
    func meetupConfirm(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let meetup = try meetup(context)
        try storageAction(context, [.forbidden: "meetups.errors.confirm_late"]) {
            try database.confirmPlace(meetupID: meetup.storedID, userID: user.storedID)
        }
        return redirect(to: Paths.meetup(try meetup.storedID), flash: "meetup_confirmed")
    }

    /// `POST /meetups/:id/checkin`: a participant types the host's code to be marked present.
    func meetupCheckIn(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let meetup = try meetup(context)
        let code = String((context.form["code"] ?? "").trimmed.prefix(12))
        let text = { (key: String, arguments: [String: String]) in self.localizer.text(key, context.language, arguments) }
        switch try database.checkIn(meetupID: meetup.storedID, userID: user.storedID, code: code) {
        case .checkedIn: return redirect(to: Paths.meetup(try meetup.storedID) + "#checkin", flash: "checked_in")
        case .wrongCode(let left): throw HTTPError(.unprocessableContent, message: text("meetups.checkin.wrong", ["left": String(left)]))
        case .locked: throw HTTPError(.forbidden, message: text("meetups.checkin.locked", [:]))
        case .notOpen: throw HTTPError(.conflict, message: text("meetups.checkin.not_open", [:]))
        case .notGoing: throw HTTPError(.forbidden, message: text("meetups.checkin.not_going", [:]))
        }
    }

    /// Six digits from the CSPRNG.
    static func newCheckinCode() -> String {
        let value = Crypto.randomBytes(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % 1_000_000
        let digits = String(value)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// `POST /meetups/:id/close`: the host stops taking signups.
    func meetupClose(_ context: RequestContext) throws -> HTTPResponse {
        let meetup = try hostedMeetup(context)
        try database.closeMeetup(id: meetup.storedID, by: meetup.hostID)
        return redirect(to: Paths.meetup(try meetup.storedID), flash: "meetup_closed")
    }

    /// `POST /meetups/:id/applications/:user/{accept,reject}`
    func meetupDecide(_ accept: Bool) -> Page {
        { [unowned self] context in
            let meetup = try hostedMeetup(context)
            guard let name = context.request.parameters["user"], let applicant = try database.user(username: name) else {
                throw HTTPError(.notFound)
            }
            do {
                try database.decideApplication(meetupID: meetup.storedID, userID: applicant.storedID, by: meetup.hostID, accept: accept)
            } catch StorageError.full {
                throw HTTPError(.conflict, message: localizer.text("meetups.errors.full", context.language))
            } catch StorageError.notFound {
                throw HTTPError(.notFound)
            }
            return redirect(to: Paths.meetup(try meetup.storedID) + "#participants", flash: accept ? "application_accepted" : "application_rejected")
        }
    }

    /// `POST /meetups/:id/attendance`: one form, a checkbox per person going.
    func meetupAttendance(_ context: RequestContext) throws -> HTTPResponse {
        let meetup = try hostedMeetup(context)
        let present = Set(context.form.values("present").compactMap(Checked.id))
        do {
            try database.recordAttendance(meetupID: meetup.storedID, by: meetup.hostID, present: present)
        } catch StorageError.forbidden {
            throw HTTPError(.conflict, message: localizer.text("meetups.errors.not_started", context.language))
        }
        return redirect(to: Paths.meetup(try meetup.storedID) + "#participants", flash: "attendance_saved")
    }

    /// `POST /meetups/:id/comments`: the talk thread, for the host and those going.
    func meetupTalk(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        try requireCanPost(user, .comments, context)
        let meetup = try meetup(context)
        let body = try shortText(context, maximum: 2000, message: "errors.crew_comment_length")
        do {
            try database.addTalk(meetupID: meetup.storedID, authorID: user.storedID, body: body, bodyHTML: postContent(body).bodyHTML)
        } catch StorageError.forbidden {
            throw HTTPError(.forbidden, message: localizer.text("meetups.errors.talk_members", context.language))
        }
        return redirect(to: Paths.meetup(try meetup.storedID) + "#talk")
    }

    /// `POST /meetups/:id/bookmark` and `/unbookmark`
    func meetupBookmark(_ on: Bool) -> Page {
        { [unowned self] context in
            let user = try context.requireUser()
            let meetup = try meetup(context)
            try database.setMeetupBookmark(meetupID: meetup.storedID, userID: user.storedID, on: on)
            return .redirect(to: Paths.meetup(try meetup.storedID))
        }
    }
}
