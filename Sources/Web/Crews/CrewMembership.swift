import Formats
import HTTP
import Storage

extension App {
    /// `POST /crews/:slug/join`: joins, asks to join, or joins with the invite code.
    func crewJoin(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let crew = try crew(context)
        let role = try storageAction(context, Self.crewRefusals) {
            try database.joinCrew(id: crew.storedID, userID: user.storedID, inviteCode: context.form["code"]?.trimmed)
        }
        return redirect(to: Paths.crew(crew.slug), flash: role == .pending ? "crew_requested" : "crew_joined")
    }

    /// `POST /crews/:slug/leave`: leaves the crew, or withdraws a request.
    func crewLeave(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let crew = try crew(context)
        try storageAction(context, Self.crewRefusals) { try database.leaveCrew(id: crew.storedID, userID: user.storedID) }
        return redirect(to: Paths.crew(crew.slug), flash: "crew_left")
    }

    /// `POST /crews/:slug/invite`: a new invite code (the old one stops working).
    func crewInviteRegenerate(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, user) = try staffCrew(context)
        try storageAction(context, Self.crewRefusals) { try database.setInviteCode(crewID: crew.storedID, by: user.storedID, code: Self.newInviteCode()) }
        return redirect(to: Paths.crew(crew.slug), flash: "invite_regenerated")
    }

    /// `POST /crews/:slug/comments`: any signed-in member of the site may comment.
    func crewCommentCreate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        try requireCanPost(user, .comments, context)
        let crew = try crew(context)
        let body = try shortText(context, maximum: 2000, message: "errors.crew_comment_length")
        _ = try database.addCrewComment(crewID: crew.storedID, authorID: user.storedID, body: body, bodyHTML: postContent(body).bodyHTML)
        return redirect(to: Paths.crew(crew.slug) + "#comments")
    }

    /// `POST /crews/:slug/comments/:id/delete`: by its author or the crew's staff.
    func crewCommentDelete(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let crew = try crew(context)
        guard let id = context.request.parameters["id"].flatMap(Checked.id) else { throw HTTPError(.notFound) }
        try storageAction(context, Self.crewRefusals) { try database.deleteCrewComment(id: id, by: user.storedID) }
        return redirect(to: Paths.crew(crew.slug) + "#comments", flash: "comment_deleted")
    }
}
