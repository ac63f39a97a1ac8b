import HTTP
import Storage

extension App {
    /// `GET /admin`: open reports, new members, a 30-day chart of signups and posts, recent log.
    func adminDashboard(_ context: RequestContext, _ staff: User) throws -> HTTPResponse {
        let language = context.language
        let signups = try database.moderation.dailyCounts("users", days: 30)
        let posts = try database.moderation.dailyCounts("posts", days: 30)
        var view = AdminView(tab: AdminTabMarks(current: .dashboard))
        view.openReports = try database.moderation.openReportCount()
        view.newUsers = try database.moderation.newUsers().map(UserView.init)
        view.chart = ActivityChart(series: [signups.map(\.count), posts.map(\.count)], labels: signups.map(\.day)).view
        view.log = try moderationLog(limit: 10, isPublic: false, language)
        if mailEnabled {
            let counts = try database.mail.outboxCounts()
            view.outbox = OutboxView(queued: counts.queued, failed: counts.failed)
        }
        return page(view, context, title: localizer.text(.admin.title, language))
    }
}
