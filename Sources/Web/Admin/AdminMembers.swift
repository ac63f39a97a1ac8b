import Foundation
import HTTP
import Storage

extension App {
    /// `GET /admin/users?q=`
    func adminUsers(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        let query = (context.form["q"] ?? "").trimmed
        let users = query.isEmpty ? try database.moderation.newUsers(limit: 50) : try database.moderation.findUsers(query)
        var view = AdminView(tab: AdminTabMarks(current: .users))
        view.query = query
        view.users = users.map { user in
            AdminUserRow(user: UserView(user), adminURL: Paths.adminUser(user.username), sanction: sanctionText(user, context.language))
        }
        return page(view, context, title: localizer.text(.admin.users, context.language))
    }

    /// `GET /admin/users/:username`: their activity, and the sanctions form.
    func adminUser(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        let user = try profileUser(context)
        let summary = try database.moderation.moderationSummary(userID: user.storedID)
        var view = AdminView(tab: AdminTabMarks(current: .user))
        view.member = AdminMemberView(
            user: UserView(user), email: user.email, role: localizer.text(user.role.textKey, context.language),
            sanction: sanctionText(user, context.language), actionURL: Paths.adminUser(user.username))
        view.summary = MemberSummaryView(made: summary.made, received: summary.received, sessions: summary.sessions,
                                         posts: summary.posts, comments: summary.comments)
        view.canSanction = user.id != staff.id && (user.role != .admin || staff.role == .admin)
        view.canGrant = staff.role == .admin && user.role != .admin
        view.canRemoveMessages = staff.role == .admin && user.id != staff.id
        view.isModerator = user.role == .moderator
        if mailEnabled {
            let language = context.language
            view.mail = MemberMailView(
                email: user.email, verified: try database.mail.mailSettings(userID: user.storedID).isVerified(user.email),
                messages: try database.mail.outbox(userID: user.storedID).map { mail in
                    MailRowView(
                        date: localizer.dateTime(mail.createdAt, language),
                        kind: localizer.text(mail.kind.textKey, language),
                        status: localizer.text(mail.status.textKey, language, ["attempts": String(mail.attempts)]),
                        note: mail.lastError)
                })
        }
        return page(view, context, title: "@" + user.username)
    }

    /// `POST /admin/users/:username/sanction`: warn, silence, suspend or lift.
    func adminSanction(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        let user = try profileUser(context)
        guard let action = context.form["action"].flatMap(AppDatabase.MemberAction.init(rawValue:)) else { throw HTTPError(.badRequest) }
        let reason = (context.form["reason"] ?? "").trimmed.clipped(500)
        guard !reason.isEmpty || action == .unsuspend else {
            throw HTTPError(.unprocessableContent, message: localizer.text(.admin.reason_needed, context.language))
        }
        let days = context.form["days"].flatMap(Int.init)
        let until = days.map { Date().addingTimeInterval(Double(max(1, min($0, 3650))) * 86_400) }
        try storageAction(context) { try database.moderation.sanction(action, userID: user.storedID, by: staff.storedID, until: until, reason: reason) }
        return redirect(to: Paths.adminUser(user.username), flash: \.moderation_done)
    }

    /// `POST /admin/users/:username/messages`: an admin deletes every message the member
    /// wrote, in every room, to tombstones (a spammer's), with a reason for the log.
    func adminRemoveMessages(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        guard staff.role == .admin else { throw HTTPError(.notFound) }
        let user = try profileUser(context)
        let reason = (context.form["reason"] ?? "").trimmed.clipped(300)
        guard !reason.isEmpty else { throw HTTPError(.unprocessableContent, message: localizer.text(.admin.reason_needed, context.language)) }
        media.delete(try storageAction(context) { try database.moderation.removeMessages(userID: user.storedID, by: staff.storedID, reason: reason) })
        return redirect(to: Paths.adminUser(user.username), flash: \.moderation_done)
    }

    /// `POST /admin/users/:username/role`: admins make moderators, or members again.
    func adminRole(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        guard staff.role == .admin else { throw HTTPError(.notFound) }
        let user = try profileUser(context)
        guard user.role != .admin, let role = context.form["role"].flatMap(User.Role.init(rawValue:)), role != .admin else {
            throw HTTPError(.badRequest)
        }
        _ = try database.accounts.setRole(role, username: user.username, by: staff.storedID)
        return redirect(to: Paths.adminUser(user.username), flash: \.moderation_done)
    }

    private func sanctionText(_ user: User, _ language: Language) -> String? {
        if user.isSuspended() { return localizer.text(.admin.is_suspended, language) }
        if user.isSilenced() { return localizer.text(.admin.is_silenced, language) }
        return nil
    }
}
