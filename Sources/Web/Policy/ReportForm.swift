import HTTP
import Storage

/// Shared by the pages of everything that can be reported (posts, comments, crews, meetups,
/// members) and by the report's own page.
extension App {
    /// What the report form partial needs for one target.
    func reportForm(_ target: ModerationTarget, _ id: Int64, _ context: RequestContext) -> ReportFormView {
        ReportFormView(
            type: target.rawValue, id: id, returnTo: context.request.target,
            reasons: choices(ReportReason.allCases.map(\.rawValue), labels: TextKey.moderation.reason.named, selected: nil, context.language))
    }
}

/// The report form beside a post, comment, crew, meetup or member.
struct ReportFormView {
    let type: String
    let id: Int64
    var returnTo: String
    let reasons: [Choice]
}
