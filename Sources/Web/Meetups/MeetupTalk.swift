import Foundation
import HTTP
import Storage

extension App {
    /// `POST /meetups/:id/comments`: the talk thread, for the host and those going.
    func meetupTalk(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        try requireCanPost(user, .comments, context)
        let meetup = try meetup(context)
        let body = try shortText(context, maximum: 2000, message: .errors.crew_comment_length)
        do {
            try database.meetups.addTalk(meetupID: meetup.storedID, authorID: user.storedID, body: body, bodyHTML: postContent(body).bodyHTML)
        } catch StorageError.forbidden {
            throw HTTPError(.forbidden, message: localizer.text(.meetups.errors.talk_members, context.language))
        }
        return redirect(to: Paths.meetup(try meetup.storedID) + "#talk")
    }
}
