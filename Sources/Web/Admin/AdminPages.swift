import Formats
import Foundation
import HTTP
import Storage

/// The staff pages, one template with a tab each.
struct AdminView: PageView {
    static let template = "admin"
    let tab: AdminTabMarks
    // The dashboard.
    var openReports: Int = 0
    var newUsers: [UserView] = []
    var chart: ChartView?
    var log: [LogEntryView] = []
    /// Nil when the site sends no mail.
    var outbox: OutboxView?
    // Open reports.
    var reports: [ReportGroupView] = []
    var hasReports: Bool { !reports.isEmpty }
    // Finding members.
    var query: String = ""
    var users: [AdminUserRow] = []
    // One member.
    var member: AdminMemberView?
    var summary: MemberSummaryView?
    var canSanction: Bool = false
    var canGrant: Bool = false
    var isModerator: Bool = false
    /// Their address and the mail sent to them; nil when the site sends no mail.
    var mail: MemberMailView?
}

/// The outbox at a glance.
struct OutboxView {
    let queued: Int
    let failed: Int
}

/// A member's address and newest mail, for staff answering "I never got the email".
struct MemberMailView {
    let email: String
    let verified: Bool
    let messages: [MailRowView]
    var rows: Bool { !messages.isEmpty }
}

struct MailRowView {
    let date: String
    let kind: String
    let status: String
    let note: String
}

struct AdminTabMarks {
    enum Tab { case dashboard, reports, users, user, log }
    let current: Tab
    var dashboard: Bool { current == .dashboard }
    var reports: Bool { current == .reports }
    var users: Bool { current == .users }
    var user: Bool { current == .user }
    var log: Bool { current == .log }
}

/// The reports of one post, comment, crew, meetup or member.
struct ReportGroupView {
    struct Author {
        let username: String
        let url: String
    }

    let type: String
    let typeLabel: String
    let id: Int64
    let label: String
    let url: String?
    let count: Int
    /// "3 reports"
    let countText: String
    let reasons: [String]
    let notes: [String]
    let date: String
    let author: Author?
    let hideable: Bool
    /// Hidden already: staff may restore it rather than hide it again.
    let hidden: Bool
    let lockable: Bool
}

struct AdminUserRow {
    let user: UserView
    var initial: String { user.initial }
    var displayName: String { user.displayName }
    var username: String { user.username }
    let adminURL: String
    let sanction: String?
}

struct AdminMemberView {
    let user: UserView
    var displayName: String { user.displayName }
    var username: String { user.username }
    var url: String { user.url }
    let email: String
    let role: String
    let sanction: String?
    let actionURL: String
}

/// What a member has done, for staff deciding on a sanction.
struct MemberSummaryView {
    let made: Int
    let received: Int
    let sessions: Int
    let posts: Int
    let comments: Int
}

/// One row of the moderation log.
struct LogEntryView {
    let date: String
    let moderator: String
    let action: String
    let target: String
    let label: String?
    let reason: String?
}

/// The public moderation log.
struct ModerationLogView: PageView {
    static let template = "moderation"
    let log: [LogEntryView]
}

extension App {
    /// `GET /admin`: open reports, new members, a 30-day chart of signups and posts, recent log.
    func adminDashboard(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        let language = context.language
        let signups = try database.dailyCounts("users", days: 30)
        let posts = try database.dailyCounts("posts", days: 30)
        var view = AdminView(tab: AdminTabMarks(current: .dashboard))
        view.openReports = try database.openReportCount()
        view.newUsers = try database.newUsers().map(UserView.init)
        view.chart = ActivityChart(series: [signups.map(\.count), posts.map(\.count)], labels: signups.map(\.day)).view
        view.log = try moderationLog(limit: 10, isPublic: false, language)
        if mailEnabled {
            let counts = try database.outboxCounts()
            view.outbox = OutboxView(queued: counts.queued, failed: counts.failed)
        }
        return page(view, context, title: localizer.text("admin.title", language))
    }

    /// `GET /admin/reports`: open reports grouped by target, with the content and actions.
    func adminReports(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        let language = context.language
        var view = AdminView(tab: AdminTabMarks(current: .reports))
        view.reports = try database.openReports().map { group in
            ReportGroupView(
                type: group.targetType.rawValue,
                typeLabel: localizer.text("moderation.target.\(group.targetType.rawValue)", language),
                id: group.targetID,
                label: try database.targetLabel(group.targetType, id: group.targetID) ?? "—",
                url: try targetURL(group.targetType, group.targetID),
                count: group.count,
                countText: localizer.count("admin.reports_count", group.count, language),
                reasons: Array(Set(group.reasons)).map { localizer.text("moderation.reason.\($0.rawValue)", language) },
                notes: group.notes,
                date: localizer.dateTime(group.latest, language),
                author: try database.targetAuthor(group.targetType, id: group.targetID).map {
                    ReportGroupView.Author(username: $0.username, url: Paths.adminUser($0.username))
                },
                hideable: group.targetType != .user,
                hidden: try database.targetIsHidden(group.targetType, id: group.targetID),
                lockable: group.targetType == .post)
        }
        return page(view, context, title: localizer.text("admin.reports", language))
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
        var view = AdminView(tab: AdminTabMarks(current: .users))
        view.query = query
        view.users = users.map { user in
            AdminUserRow(user: UserView(user), adminURL: Paths.adminUser(user.username), sanction: sanctionText(user, context.language))
        }
        return page(view, context, title: localizer.text("admin.users", context.language))
    }

    /// `GET /admin/users/:username`: their activity, and the sanctions form.
    func adminUser(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        let user = try profileUser(context)
        let summary = try database.moderationSummary(userID: user.storedID)
        var view = AdminView(tab: AdminTabMarks(current: .user))
        view.member = AdminMemberView(
            user: UserView(user), email: user.email, role: localizer.text("roles.\(user.role.rawValue)", context.language),
            sanction: sanctionText(user, context.language), actionURL: Paths.adminUser(user.username))
        view.summary = MemberSummaryView(made: summary.made, received: summary.received, sessions: summary.sessions,
                                         posts: summary.posts, comments: summary.comments)
        view.canSanction = user.id != staff.id && (user.role != .admin || staff.role == .admin)
        view.canGrant = staff.role == .admin && user.role != .admin
        view.isModerator = user.role == .moderator
        if mailEnabled {
            let language = context.language
            view.mail = MemberMailView(
                email: user.email, verified: try database.mailSettings(userID: user.storedID).isVerified(user.email),
                messages: try database.outbox(userID: user.storedID).map { mail in
                    MailRowView(
                        date: localizer.dateTime(mail.createdAt, language),
                        kind: localizer.text("admin.mail_kind.\(mail.kind.rawValue)", language),
                        status: localizer.text("admin.mail_status.\(mail.status.rawValue)", language, ["attempts": String(mail.attempts)]),
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
        var view = AdminView(tab: AdminTabMarks(current: .log))
        view.log = try moderationLog(limit: 300, isPublic: false, context.language)
        return page(view, context, title: localizer.text("admin.log", context.language))
    }

    /// The log's rows. The public log names only members acted on: a label of a post,
    /// comment, crew or meetup quotes what moderators removed, or a crew-only title.
    func moderationLog(limit: Int, isPublic: Bool, _ language: Language) throws -> [LogEntryView] {
        try database.moderationLog(limit: limit).map { entry, moderator in
            LogEntryView(
                date: localizer.dateTime(entry.createdAt, language),
                moderator: moderator.map { "@" + $0 } ?? localizer.text("admin.automatic", language),
                action: localizer.text("admin.action.\(entry.action)", language),
                target: localizer.text("moderation.target.\(entry.targetType)", language),
                label: !isPublic || entry.targetType == ModerationTarget.user.rawValue ? entry.targetLabel.nilIfEmpty : nil,
                reason: entry.reason.nilIfEmpty)
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
