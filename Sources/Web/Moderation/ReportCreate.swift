import Formats
import HTTP
import Storage

extension App {
    /// `POST /reports`: reports a post, comment, crew, meetup, member or message, from the small form
    /// beside it. A second open report of the same thing by the same person is a 409.
    func reportCreate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let language = context.language
        guard let target = context.form["target_type"].flatMap(ModerationTarget.init(rawValue:)),
              let targetID = context.form["target_id"].flatMap(Checked.id),
              let reason = context.form["reason"].flatMap(ReportReason.init(rawValue:))
        else { throw HTTPError(.unprocessableContent, message: localizer.text(.moderation.report_invalid, language)) }
        let note = (context.form["note"] ?? "").trimmed.clipped(500)
        if reason == .other, note.isEmpty { throw HTTPError(.unprocessableContent, message: localizer.text(.moderation.report_note_needed, language)) }
        do {
            try database.moderation.report(reporterID: user.storedID, target: target, targetID: targetID, reason: reason, note: note,
                                autoHideThreshold: configuration.autoHideThreshold)
        } catch StorageError.duplicate {
            throw HTTPError(.conflict, message: localizer.text(.moderation.already_reported, language))
        } catch StorageError.notFound {
            throw HTTPError(.notFound)
        }
        return redirect(to: Paths.local(context.form["return_to"]), flash: \.report_sent)
    }

    /// `GET /reports/new?target_type=…&target_id=…`: the report form on a page of its own, linked
    /// from places that list many things (each comment of a thread), where a form per item
    /// would weigh down the page.
    func reportNew(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let target = context.form["target_type"].flatMap(ModerationTarget.init(rawValue:)),
              let id = context.form["target_id"].flatMap(Checked.id),
              let label = try database.moderation.targetLabel(target, id: id)
        else { throw HTTPError(.notFound) }
        // A message only for those in its room: anyone else is told nothing of it.
        if target == .message, try !database.talk.canRead(messageID: id, userID: user.storedID) { throw HTTPError(.notFound) }
        var report = reportForm(target, id, context)
        report.returnTo = Paths.local(context.form["return_to"])
        return page(ReportPageView(label: label, report: report), context, title: localizer.text(.moderation.report, context.language))
    }
}

/// Reporting one thing on a page of its own (a comment of a long thread).
struct ReportPageView: PageView {
    static let template = "report"
    /// What is reported, in words.
    let label: String
    let report: ReportFormView
}
