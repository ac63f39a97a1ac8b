import Formats
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
        if meetup.isCancelled { throw HTTPError(.conflict, message: localizer.text(.meetups.cancelled.refused, language)) }
        let group = context.form["group"].flatMap(Checked.id)
        let result = try storageAction(context) { try database.meetups.apply(meetupID: meetup.storedID, userID: user.storedID, groupID: group) }
        switch result {
        case .accepted: return redirect(to: Paths.meetup(try meetup.storedID), flash: \.meetup_accepted)
        case .pending: return redirect(to: Paths.meetup(try meetup.storedID), flash: \.meetup_pending)
        case .waitlisted: return redirect(to: Paths.meetup(try meetup.storedID), flash: \.meetup_waitlisted)
        case .alreadyApplied: return redirect(to: Paths.meetup(try meetup.storedID))
        case .closed: throw HTTPError(.conflict, message: localizer.text(.meetups.errors.closed, language))
        case .chooseGroup: throw HTTPError(.unprocessableContent, message: localizer.text(.meetups.groups.choose, language))
        case .notEligible(let reasons) where reasons.contains(where: \.needsProfile):
            let back = Paths.settings + "?for=" + PercentEncoding.encode(Paths.meetup(try meetup.storedID))
            if reasons.contains(.missingWorkplace) { return redirect(to: back + "#workplace", flash: \.workplace_needed) }
            return redirect(to: back, flash: \.profile_needed)
        case .notEligible(let reasons):
            let why = reasons.map { localizer.text($0.textKey, language) }.joined(separator: " ")
            throw HTTPError(.forbidden, message: why)
        }
    }

    /// `POST /meetups/:id/cancel`
    func meetupCancel(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let meetup = try meetup(context)
        try storageAction(context) { try database.meetups.cancelApplication(meetupID: meetup.storedID, userID: user.storedID) }
        return redirect(to: Paths.meetup(try meetup.storedID), flash: \.meetup_cancelled)
    }

    /// `POST /meetups/:id/confirm`: keeps a place after the host moved the meetup.
    func meetupConfirm(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let meetup = try meetup(context)
        try storageAction(context, [.forbidden: .meetups.errors.confirm_late]) {
            try database.meetups.confirmPlace(meetupID: meetup.storedID, userID: user.storedID)
        }
        return redirect(to: Paths.meetup(try meetup.storedID), flash: \.meetup_confirmed)
    }
}
