import HTTP
import Storage

extension App {
    /// `GET /admin/log`: every action, with who took it.
    func adminLog(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        var view = AdminView(tab: AdminTabMarks(current: .log))
        view.log = try moderationLog(limit: 300, isPublic: false, context.language)
        return page(view, context, title: localizer.text(.admin.log, context.language))
    }
}
