import HTTP
import Storage

extension App {
    /// `GET /moderation`: the public log. Reporters never appear; moderators do, as on Lobsters.
    func publicModerationLog(_ context: RequestContext) throws -> HTTPResponse {
        let view = ModerationLogView(log: try moderationLog(limit: 200, isPublic: true, context.language))
        return page(view, context, title: localizer.text("admin.public_log", context.language))
    }
}
