import HTTP
import Storage

/// What staff and the owner can do to a member from the members tab.
enum CrewMemberAction: String {
    case accept, reject, remove, promote, demote, transfer

    /// What the next page says was done.
    var done: KeyPath<TextKeyTree.flash, TextKey> {
        switch self {
        case .accept: \.crew_member_accept
        case .reject: \.crew_member_reject
        case .remove: \.crew_member_remove
        case .promote: \.crew_member_promote
        case .demote: \.crew_member_demote
        case .transfer: \.crew_member_transfer
        }
    }
}

struct CrewMembersTab {
    let members: [CrewMemberView]
    /// Requests to join, for staff.
    let pending: [CrewMemberView]
    var hasPending: Bool { !pending.isEmpty }
}

/// A member (or someone asking to join) in the members tab.
struct CrewMemberView {
    let user: UserView
    let role: String
    let joined: String
    let actionBase: String
    /// This period's dues, when the crew has a fee.
    let dues: String?
    let duesPaid: Bool
    /// An ordinary member: the owner may promote them.
    let isMember: Bool
    let isStaffMember: Bool
    let canRemove: Bool
}

extension App {
    /// `GET /crews/:slug/members`: members with roles and join dates; requests for staff.
    func crewMembersShow(_ context: RequestContext) throws -> HTTPResponse {
        let crew = try crew(context)
        let role = try viewerRole(crew, context)
        let language = context.language
        let crewID = try crew.storedID
        let dues = crew.feeAmount > 0 ? try database.crews.duesStatus(crewID: crewID, periodStart: duesPeriodStart(crew)) : [:]
        let members = try database.crews.crewMembers(crewID: crewID)
        let pending = role?.isStaff == true ? try database.crews.crewMembers(crewID: crewID, pending: true) : []
        let memberView = { (member: CrewMember) in
            CrewMemberView(
                user: UserView(member.user),
                role: self.localizer.text(member.role.textKey, language),
                joined: self.localizer.text(.crews.joined_on, language, ["date": self.localizer.date(member.joinedAt, language)]),
                actionBase: Paths.crew(crew.slug) + "/members/" + PercentEncoding.encode(member.user.username),
                dues: dues[member.user.id ?? 0].map { self.localizer.text($0.textKey, language) },
                duesPaid: dues[member.user.id ?? 0] != .unpaid,
                isMember: member.role == .member,
                isStaffMember: member.role == .staff,
                canRemove: (role == .owner && member.role != .owner) || (role == .staff && member.role == .member))
        }
        var view = try crewPage(crew, tab: .members, role: role, context)
        view.membersTab = CrewMembersTab(members: members.map(memberView), pending: pending.map(memberView))
        return renderCrew(view, crew, context)
    }

    /// `POST /crews/:slug/members/:username/:action`
    func crewMemberAction(_ action: CrewMemberAction) -> Page {
        { [unowned self] context in
            let actor = try context.requireUser()
            let crew = try crew(context)
            guard let name = context.request.parameters["username"], let member = try database.accounts.user(username: name) else {
                throw HTTPError(.notFound)
            }
            let crewID = try crew.storedID, memberID = try member.storedID, actorID = try actor.storedID
            try storageAction(context, Self.crewRefusals) {
                switch action {
                case .accept, .reject:
                    let fee = try database.crews.decideJoinRequest(crewID: crewID, applicantID: memberID, by: actorID, accept: action == .accept)
                    fee.map { refundJoinFee($0, reason: localizer.text(.payments.refund_reasons.declined, mailLanguage(member))) }
                case .remove:
                    try database.crews.removeCrewMember(crewID: crewID, userID: memberID, by: actorID)
                case .promote, .demote:
                    try database.crews.setCrewRole(crewID: crewID, userID: memberID, role: action == .promote ? .staff : .member, by: actorID)
                case .transfer:
                    try database.crews.transferCrew(crewID: crewID, to: memberID, by: actorID)
                }
            }
            return redirect(to: Paths.crewMembers(crew.slug), flash: action.done)
        }
    }
}
