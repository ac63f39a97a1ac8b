import HTTP
import Storage

extension App {
    /// `GET /moderation`: the public log. Reporters never appear; moderators do, as on Lobsters.
    func publicModerationLog(_ context: RequestContext) throws -> HTTPResponse {
        let view = ModerationLogView(log: try moderationLog(limit: 200, isPublic: true, context.language))
        return page(view, context, title: localizer.text(.admin.public_log, context.language))
    }

    /// The log's rows. The public log names only members acted on: a label of a post,
    /// comment, crew or meetup quotes what moderators removed, or a crew-only title.
    func moderationLog(limit: Int, isPublic: Bool, _ language: Language) throws -> [LogEntryView] {
        try database.moderation.moderationLog(limit: limit).map { entry, moderator in
            LogEntryView(
                date: localizer.dateTime(entry.createdAt, language),
                moderator: moderator.map { "@" + $0 } ?? localizer.text(.admin.automatic, language),
                action: localizer.text(TextKey.admin.action.named(entry.action), language, otherwise: entry.action),
                target: localizer.text(TextKey.moderation.target.named(entry.targetType), language, otherwise: entry.targetType),
                label: !isPublic || entry.targetType == ModerationTarget.user.rawValue ? entry.targetLabel.nilIfEmpty : nil,
                reason: entry.reason.nilIfEmpty)
        }
    }
}
