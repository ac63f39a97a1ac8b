import Foundation
import HTTP
import Storage

extension App {
    /// `POST /meetups/:id/bookmark` and `/unbookmark`
    func meetupBookmark(_ on: Bool) -> Page {
        { [unowned self] context in
            let user = try context.requireUser()
            let meetup = try meetup(context)
            try database.meetups.setMeetupBookmark(meetupID: meetup.storedID, userID: user.storedID, on: on)
            return .redirect(to: Paths.meetup(try meetup.storedID))
        }
    }
}
