import Formats
import HTTP
import Storage

extension App {
    /// `POST /crews/:slug/comments`: any signed-in member of the site may comment.
    func crewCommentCreate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        try requireCanPost(user, .comments, context)
        let crew = try crew(context)
        let body = try shortText(context, maximum: 2000, message: .errors.crew_comment_length)
        _ = try database.crews.addCrewComment(crewID: crew.storedID, authorID: user.storedID, body: body, bodyHTML: postContent(body).bodyHTML)
        return redirect(to: Paths.crew(crew.slug) + "#comments")
    }

    /// `POST /crews/:slug/comments/:id/delete`: by its author or the crew's staff.
    func crewCommentDelete(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let crew = try crew(context)
        guard let id = context.request.parameters["id"].flatMap(Checked.id) else { throw HTTPError(.notFound) }
        try storageAction(context, Self.crewRefusals) { try database.crews.deleteCrewComment(id: id, by: user.storedID) }
        return redirect(to: Paths.crew(crew.slug) + "#comments", flash: \.comment_deleted)
    }
}
