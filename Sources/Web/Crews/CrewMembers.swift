import HTTP
import Storage

/// What staff and the owner can do to a member from the members tab.
enum CrewMemberAction: String {
    case accept, reject, remove, promote, demote, transfer
}

extension App {
    /// `GET /crews/:slug/members`: members with roles and join dates; requests for staff.
    func crewMembersShow(_ context: RequestContext) throws -> HTTPResponse {
        let crew = try crew(context)
        let role = try viewerRole(crew, context)
        let language = context.language
        let crewID = try crew.storedID
        let dues = crew.feeAmount > 0 ? try database.duesStatus(crewID: crewID, periodStart: duesPeriodStart(crew)) : [:]
        let members = try database.crewMembers(crewID: crewID)
        let pending = role?.isStaff == true ? try database.crewMembers(crewID: crewID, pending: true) : []
        let memberView = { (member: CrewMember) -> [String: Any] in
            var view = self.userView(member.user)
            view["role"] = self.localizer.text("crews.role.\(member.role.rawValue)", language)
            view["joined"] = self.localizer.text("crews.joined_on", language, ["date": self.localizer.date(member.joinedAt, language)])
            view["actionBase"] = Paths.crew(crew.slug) + "/members/" + PercentEncoding.encode(member.user.username)
            view["dues"] = dues[member.user.id ?? 0].map { self.localizer.text("crews.dues.\($0.rawValue)", language) } as Any
            view["duesPaid"] = dues[member.user.id ?? 0] != .unpaid
            view["isMember"] = member.role == .member
            view["isStaffMember"] = member.role == .staff
            view["canRemove"] = (role == .owner && member.role != .owner) || (role == .staff && member.role == .member)
            return view
        }
        return try renderCrew(crew, tab: .members, role: role, [
            "members": members.map(memberView),
            "pending": pending.map(memberView),
            "hasPending": !pending.isEmpty,
        ], context)
    }

    /// `POST /crews/:slug/members/:username/:action`
    func crewMemberAction(_ action: CrewMemberAction) -> Page {
        { [unowned self] context in
            let actor = try context.requireUser()
            let crew = try crew(context)
            guard let name = context.request.parameters["username"], let member = try database.user(username: name) else {
                throw HTTPError(.notFound)
            }
            let crewID = try crew.storedID, memberID = try member.storedID, actorID = try actor.storedID
            try storageAction(context, Self.crewRefusals) {
                switch action {
                case .accept, .reject:
                    try database.decideJoinRequest(crewID: crewID, applicantID: memberID, by: actorID, accept: action == .accept)
                case .remove:
                    try database.removeCrewMember(crewID: crewID, userID: memberID, by: actorID)
                case .promote, .demote:
                    try database.setCrewRole(crewID: crewID, userID: memberID, role: action == .promote ? .staff : .member, by: actorID)
                case .transfer:
                    try database.transferCrew(crewID: crewID, to: memberID, by: actorID)
                }
            }
            return redirect(to: Paths.crewMembers(crew.slug), flash: "crew_member_\(action.rawValue)")
        }
    }
}
