import Foundation
import HTTP
import Storage

/// The host's decisions: closing signups, accepting or turning down those who asked.
extension App {
    /// `POST /meetups/:id/close`: the host stops taking signups.
    func meetupClose(_ context: RequestContext) throws -> HTTPResponse {
        let meetup = try hostedMeetup(context)
        try database.meetups.closeMeetup(id: meetup.storedID, by: meetup.hostID)
        return redirect(to: Paths.meetup(try meetup.storedID), flash: \.meetup_closed)
    }

    /// `POST /meetups/:id/applications/:user/{accept,reject}`
    func meetupDecide(_ accept: Bool) -> Page {
        { [unowned self] context in
            let meetup = try hostedMeetup(context)
            guard let name = context.request.parameters["user"], let applicant = try database.accounts.user(username: name) else {
                throw HTTPError(.notFound)
            }
            do {
                try database.meetups.decideApplication(meetupID: meetup.storedID, userID: applicant.storedID, by: meetup.hostID, accept: accept)
            } catch StorageError.full {
                throw HTTPError(.conflict, message: localizer.text(.meetups.errors.full, context.language))
            } catch StorageError.notFound {
                throw HTTPError(.notFound)
            }
            return redirect(to: Paths.meetup(try meetup.storedID) + "#participants", flash: accept ? \.application_accepted : \.application_rejected)
        }
    }
}
