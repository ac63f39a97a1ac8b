import Foundation
import HTTP
import Storage

extension App {
    /// `GET /admin`: open reports, new members, a 30-day chart of signups and posts, recent log.
    func adminDashboard(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        let language = context.language
        let signups = try database.dailyCounts("users", days: 30)
        let posts = try database.dailyCounts("posts", days: 30)
        return try render("admin", context, title: localizer.text("admin.title", language), [
            "tab": ["dashboard": true],
            "openReports": try database.openReportCount(),
            "newUsers": try database.newUsers().map(userView),
            "chart": ActivityChart(series: [signups.map(\.count), posts.map(\.count)], labels: signups.map(\.day)).view,
            "log": try logView(limit: 10, isPublic: false, language),
        ])
    }

    /// `GET /admin/reports`: open reports grouped by target, with the content and actions.
    func adminReports(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        let language = context.language
        let groups = try database.openReports().map { group -> [String: Any] in
            [
                "type": group.targetType.rawValue,
                "typeLabel": localizer.text("moderation.target.\(group.targetType.rawValue)", language),
                "id": group.targetID,
                "label": try database.targetLabel(group.targetType, id: group.targetID) ?? "—",
                "url": try targetURL(group.targetType, group.targetID) as Any,
                "count": group.count,
                "reasons": Array(Set(group.reasons)).map { localizer.text("moderation.reason.\($0.rawValue)", language) },
                "notes": group.notes,
                "date": localizer.dateTime(group.latest, language),
                "author": try database.targetAuthor(group.targetType, id: group.targetID).map { author -> [String: Any] in
                    ["username": author.username, "url": Paths.adminUser(author.username)]
                } as Any,
                "hideable": group.targetType != .user,
                "lockable": group.targetType == .post,
            ]
        }
        return try render("admin", context, title: localizer.text("admin.reports", language), [
            "tab": ["reports": true], "reports": groups, "hasReports": !groups.isEmpty,
        ])
    }

    /// `POST /admin/moderate`: one action on one target, with a reason, logged.
    func adminModerate(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        guard let action = context.form["action"].flatMap(AppDatabase.ContentAction.init(rawValue:)),
              let target = context.form["target_type"].flatMap(ModerationTarget.init(rawValue:)),
              let id = context.form["target_id"].flatMap(Checked.id)
        else { throw HTTPError(.badRequest) }
        let reason = (context.form["reason"] ?? "").trimmed.clipped(300)
        try storageAction(context) { try database.moderate(action, target: target, targetID: id, by: staff.storedID, reason: reason) }
        return redirect(to: Paths.local(context.form["return_to"] ?? "/admin/reports"), flash: "moderation_done")
    }

    /// `GET /admin/users?q=`
    func adminUsers(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        let query = (context.form["q"] ?? "").trimmed
        let users = query.isEmpty ? try database.newUsers(limit: 50) : try database.findUsers(query)
        return try render("admin", context, title: localizer.text("admin.users", context.language), [
            "tab": ["users": true], "query": query, "users": users.map { user -> [String: Any] in
                var view = userView(user)
                view["adminURL"] = Paths.adminUser(user.username)
                view["sanction"] = sanctionText(user, context.language) as Any
                return view
            },
        ])
    }

    /// `GET /admin/users/:username`: their activity, and the sanctions form.
    func adminUser(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        let user = try profileUser(context)
        let summary = try database.moderationSummary(userID: user.storedID)
        var view = userView(user)
        view["email"] = user.email
        view["role"] = localizer.text("roles.\(user.role.rawValue)", context.language)
        view["sanction"] = sanctionText(user, context.language) as Any
        view["actionURL"] = Paths.adminUser(user.username)
        return try render("admin", context, title: "@" + user.username, [
            "tab": ["user": true], "member": view,
            "summary": ["made": summary.made, "received": summary.received, "sessions": summary.sessions, "posts": summary.posts, "comments": summary.comments],
            "canSanction": user.id != staff.id && (user.role != .admin || staff.role == .admin),
            "canGrant": staff.role == .admin && user.role != .admin,
            "isModerator": user.role == .moderator,
        ])
    }

    /// `POST /admin/users/:username/sanction`: warn, silence, suspend or lift.
    func adminSanction(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        let user = try profileUser(context)
        guard let action = context.form["action"].flatMap(AppDatabase.MemberAction.init(rawValue:)) else { throw HTTPError(.badRequest) }
        let reason = (context.form["reason"] ?? "").trimmed.clipped(500)
        guard !reason.isEmpty || action == .unsuspend else {
            throw HTTPError(.unprocessableContent, message: localizer.text("admin.reason_needed", context.language))
        }
        let days = context.form["days"].flatMap(Int.init)
        let until = days.map { Date().addingTimeInterval(Double(max(1, min($0, 3650))) * 86_400) }
        try storageAction(context) { try database.sanction(action, userID: user.storedID, by: staff.storedID, until: until, reason: reason) }
        return redirect(to: Paths.adminUser(user.username), flash: "moderation_done")
    }

    /// `POST /admin/users/:username/role`: admins make moderators, or members again.
    func adminRole(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        guard staff.role == .admin else { throw HTTPError(.notFound) }
        let user = try profileUser(context)
        guard user.role != .admin, let role = context.form["role"].flatMap(User.Role.init(rawValue:)), role != .admin else {
            throw HTTPError(.badRequest)
        }
        _ = try database.setRole(role, username: user.username, by: staff.storedID)
        return redirect(to: Paths.adminUser(user.username), flash: "moderation_done")
    }

    /// `GET /admin/log`: every action, with who took it.
    func adminLog(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        try render("admin", context, title: localizer.text("admin.log", context.language), [
            "tab": ["log": true], "log": try logView(limit: 300, isPublic: false, context.language),
        ])
    }

    /// `GET /moderation`: the public log. Reporters never appear; moderators do, as on Lobsters.
    func publicModerationLog(_ context: RequestContext) throws -> HTTPResponse {
        try render("moderation", context, title: localizer.text("admin.public_log", context.language), [
            "log": try logView(limit: 200, isPublic: true, context.language),
        ])
    }

    /// The log's rows. The public log names only members acted on: a label of a post,
    /// comment, crew or meetup quotes what moderators removed, or a crew-only title.
    func logView(limit: Int, isPublic: Bool, _ language: Language) throws -> [[String: Any]] {
        try database.moderationLog(limit: limit).map { entry, moderator in
            [
                "date": localizer.dateTime(entry.createdAt, language),
                "moderator": moderator.map { "@" + $0 } ?? localizer.text("admin.automatic", language),
                "action": localizer.text("admin.action.\(entry.action)", language),
                "target": localizer.text("moderation.target.\(entry.targetType)", language),
                "label": (!isPublic || entry.targetType == ModerationTarget.user.rawValue ? entry.targetLabel.nilIfEmpty : nil) as Any,
                "reason": entry.reason.nilIfEmpty as Any,
            ]
        }
    }

    private func sanctionText(_ user: User, _ language: Language) -> String? {
        if user.isSuspended() { return localizer.text("admin.is_suspended", language) }
        if user.isSilenced() { return localizer.text("admin.is_silenced", language) }
        return nil
    }

    private func targetURL(_ target: ModerationTarget, _ id: Int64) throws -> String? {
        switch target {
        case .post: return Paths.post(id)
        case .comment: return try database.comment(id: id).map { Paths.comment(id, post: $0.postID) }
        case .crew: return try database.crew(id: id).map { Paths.crew($0.slug) }
        case .meetup: return Paths.meetup(id)
        case .user: return try database.user(id: id).map { Paths.adminUser($0.username) }
        }
    }
}
