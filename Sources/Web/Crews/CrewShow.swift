import Foundation
import HTTP
import Storage

extension App {
    /// `GET /crews/:slug`: about the crew, and its comment thread.
    func crewShow(_ context: RequestContext) throws -> HTTPResponse {
        let crew = try crew(context)
        let comments = try database.crewComments(crewID: crew.storedID)
        let role = try viewerRole(crew, context)
        let leaderboard = try crewLeaderboard(crew, context)
        return try renderCrew(crew, tab: .about, role: role, [
            "descriptionHTML": crew.descriptionHTML,
            "meetingTime": crew.meetingTime.nilIfEmpty as Any,
            "meetingPlace": crew.meetingPlace.nilIfEmpty as Any,
            "comments": comments.map { entry -> [String: Any] in
                [
                    "id": entry.comment.id ?? 0,
                    "author": userView(entry.author),
                    "bodyHTML": entry.comment.bodyHTML,
                    "date": localizer.dateTime(entry.comment.createdAt, context.language),
                    "canDelete": entry.author.id == context.user?.id || role?.isStaff == true,
                    "deleteURL": Paths.crew(crew.slug) + "/comments/\(entry.comment.id ?? 0)/delete",
                ]
            },
            "hasComments": !comments.isEmpty,
            "leaderboard": leaderboard,
            "hasLeaderboard": !leaderboard.isEmpty,
        ], context)
    }

    /// `GET /crews/:slug/posts`: posts written in the crew.
    func crewPostsShow(_ context: RequestContext) throws -> HTTPResponse {
        let crew = try crew(context)
        let page = try database.crewPosts(crewID: crew.storedID, before: cursor(context), viewerID: context.user?.id)
        var view = feedView(page, path: Paths.crew(crew.slug) + "/posts", context)
        view["composeURL"] = Paths.newPost + "?crew=" + crew.slug
        return try renderCrew(crew, tab: .posts, role: try viewerRole(crew, context), view, context)
    }

    /// `GET /crews/:slug/meetups`: the crew's upcoming meetups.
    func crewMeetupsShow(_ context: RequestContext) throws -> HTTPResponse {
        let crew = try crew(context)
        var filter = MeetupFilter()
        filter.crewID = try crew.storedID
        let meetups = try database.meetups(filter, viewerID: context.user?.id, after: nil, limit: 50).meetups
        return try renderCrew(crew, tab: .meetups, role: try viewerRole(crew, context), [
            "meetups": meetups.map { meetupView($0, context.language) },
            "hasMeetups": !meetups.isEmpty,
            "newMeetupURL": Paths.newMeetup + "?crew=" + crew.slug,
        ], context)
    }

    /// This month's distance per opted-in member, summed in SQL.
    private func crewLeaderboard(_ crew: Crew, _ context: RequestContext) throws -> [[String: Any]] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = localizer.timeZone
        guard let start = calendar.date(from: calendar.dateComponents([.year, .month], from: Date())),
              let end = calendar.date(byAdding: .month, value: 1, to: start) else { return [] }
        let units = context.user?.units ?? "km"
        return try database.leaderboard(crewID: crew.storedID, from: start, to: end).enumerated().map { index, row in
            var view = userView(row.user)
            view["rank"] = index + 1
            view["distance"] = distanceText(row.meters, units: units, context.language)
            view["runs"] = row.runs
            return view
        }
    }

    func viewerRole(_ crew: Crew, _ context: RequestContext) throws -> CrewRole? {
        try context.user.flatMap { try database.crewRole(crewID: crew.storedID, userID: $0.storedID) }
    }

    /// The crew page around one tab: header, join controls and tab navigation.
    func renderCrew(_ crew: Crew, tab: CrewTab, role: CrewRole?, _ data: [String: Any], _ context: RequestContext, status: HTTPStatus = .ok) throws -> HTTPResponse {
        let base = Paths.crew(crew.slug)
        var view: [String: Any] = [
            "crew": crewView(crew, context.language),
            "tab": [tab.rawValue: true],
            "tabs": [
                "about": base, "members": base + "/members", "meetups": base + "/meetups", "posts": base + "/posts", "ledger": base + "/ledger", "retros": base + "/retros",
            ],
            "isMember": role?.isMember == true,
            "isPending": role == .pending,
            "isStaff": role?.isStaff == true,
            "isOwner": role == .owner,
            "canJoin": context.user != nil && role == nil && !crew.isFull,
            "needsCode": crew.joinPolicy == .invite,
            "asksApproval": crew.joinPolicy == .approval,
            "inviteCode": (role?.isStaff == true ? crew.inviteCode : nil) as Any,
            "hasFee": crew.feeAmount > 0,
            "report": reportView(.crew, try crew.storedID, context),
            "roleLabel": role.map { localizer.text("crews.role.\($0.rawValue)", context.language) } as Any,
        ]
        view.merge(data) { _, new in new }
        return try render("crew", context, title: crew.name, section: .crews, status: status, view)
    }
}
