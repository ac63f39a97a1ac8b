import Formats
import HTTP
import Storage

extension App {
    /// `GET /admin/reports`: open reports grouped by target, with the content and actions.
    func adminReports(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        let language = context.language
        var view = AdminView(tab: AdminTabMarks(current: .reports))
        view.reports = try database.moderation.openReports().map { group in
            ReportGroupView(
                type: group.targetType.rawValue,
                typeLabel: localizer.text(group.targetType.textKey, language),
                id: group.targetID,
                label: try database.moderation.targetLabel(group.targetType, id: group.targetID) ?? "—",
                url: try targetURL(group.targetType, group.targetID),
                count: group.count,
                countText: localizer.count(.admin.reports_count, group.count, language),
                reasons: Array(Set(group.reasons)).map { localizer.text($0.textKey, language) },
                notes: group.notes,
                date: localizer.dateTime(group.latest, language),
                author: try database.moderation.targetAuthor(group.targetType, id: group.targetID).map {
                    ReportGroupView.Author(username: $0.username, url: Paths.adminUser($0.username))
                },
                context: try reportContext(group),
                hideable: group.targetType != .user && group.targetType != .message,
                deletable: group.targetType != .user,
                hidden: try database.moderation.targetIsHidden(group.targetType, id: group.targetID),
                lockable: group.targetType == .post)
        }
        return page(view, context, title: localizer.text(.admin.reports, language))
    }

    /// `POST /admin/moderate`: one action on one target, with a reason, logged.
    func adminModerate(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        guard let action = context.form["action"].flatMap(AppDatabase.ContentAction.init(rawValue:)),
              let target = context.form["target_type"].flatMap(ModerationTarget.init(rawValue:)),
              let id = context.form["target_id"].flatMap(Checked.id)
        else { throw HTTPError(.badRequest) }
        let reason = (context.form["reason"] ?? "").trimmed.clipped(300)
        media.delete(try storageAction(context) {
            try database.moderation.moderate(action, target: target, targetID: id, by: staff.storedID, reason: reason)
        })
        return redirect(to: Paths.local(context.form["return_to"] ?? "/admin/reports"), flash: \.moderation_done)
    }

    private func targetURL(_ target: ModerationTarget, _ id: Int64) throws -> String? {
        switch target {
        case .post: return Paths.post(id)
        case .comment: return try database.comments.comment(id: id).map { Paths.comment(id, post: $0.postID) }
        case .crew: return try database.crews.crew(id: id).map { Paths.crew($0.slug) }
        case .meetup: return Paths.meetup(id)
        case .user: return try database.accounts.user(id: id).map { Paths.adminUser($0.username) }
        case .message: return nil  // in a room staff are not in: its context shows instead
        }
    }

    /// A reported message with the messages around it, so whoever decides sees what it
    /// answered; nothing for other targets.
    func reportContext(_ group: ReportGroup) throws -> [ReportContextLine] {
        guard group.targetType == .message else { return [] }
        return try database.talk.context(of: group.targetID).map { item in
            ReportContextLine(author: item.author.displayName, text: item.message.deletedAt == nil ? item.message.body : "",
                              reported: item.message.id == group.targetID)
        }
    }
}
