import Formats
import Foundation
import HTTP
import Storage

/// Who came: the self check-in with the host's code, and the host's attendance list.
extension App {
    /// `POST /meetups/:id/checkin`: a participant types the host's code to be marked present.
    func meetupCheckIn(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let meetup = try meetup(context)
        let code = String((context.form["code"] ?? "").trimmed.prefix(12))
        let text = { (key: TextKey, arguments: [String: String]) in self.localizer.text(key, context.language, arguments) }
        switch try database.meetups.checkIn(meetupID: meetup.storedID, userID: user.storedID, code: code) {
        case .checkedIn: return redirect(to: Paths.meetup(try meetup.storedID) + "#checkin", flash: \.checked_in)
        case .wrongCode(let left): throw HTTPError(.unprocessableContent, message: localizer.count(.meetups.checkin.wrong, left, context.language))
        case .locked: throw HTTPError(.forbidden, message: text(.meetups.checkin.locked, [:]))
        case .notOpen: throw HTTPError(.conflict, message: text(.meetups.checkin.not_open, [:]))
        case .notGoing: throw HTTPError(.forbidden, message: text(.meetups.checkin.not_going, [:]))
        }
    }

    /// Six digits from the CSPRNG.
    static func newCheckinCode() -> String {
        let value = Crypto.randomBytes(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % 1_000_000
        let digits = String(value)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// `POST /meetups/:id/attendance`: one form, a checkbox per person going.
    func meetupAttendance(_ context: RequestContext) throws -> HTTPResponse {
        let meetup = try hostedMeetup(context)
        let present = Set(context.form.values("present").compactMap(Checked.id))
        do {
            try database.meetups.recordAttendance(meetupID: meetup.storedID, by: meetup.hostID, present: present)
        } catch StorageError.forbidden {
            throw HTTPError(.conflict, message: localizer.text(.meetups.errors.not_started, context.language))
        }
        return redirect(to: Paths.meetup(try meetup.storedID) + "#participants", flash: \.attendance_saved)
    }
}
