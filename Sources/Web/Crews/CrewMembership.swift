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
}
