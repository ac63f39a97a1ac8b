import Formats
import HTTP
import Storage

/// Reports of messages in a crew's rooms, for its staff: each with the messages around it.
struct CrewReportsView: PageView {
    static let template = "crew-reports"
    let crewName: String
    let crewURL: String
    let reports: [CrewReportView]
    var hasReports: Bool { !reports.isEmpty }
}

struct CrewReportView {
    let id: Int64
    /// "3 reports · Nov 27, 19:40"
    let summary: String
    let reasons: [String]
    let notes: [String]
    let context: [ReportContextLine]
    var hasContext: Bool { !context.isEmpty }
    /// The message in its room.
    let roomURL: String
    let actionURL: String
}

extension App {
    /// `GET /crews/:slug/reports`: what members reported in the crew's rooms, for its staff
    /// (anyone else: 403).
    func crewReports(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, _) = try staffCrew(context)
        let language = context.language
        let reports = try database.moderation.crewMessageReports(crewID: crew.storedID).map { group in
            let message = try database.talk.message(id: group.targetID)
            return CrewReportView(
                id: group.targetID,
                summary: localizer.count(.admin.reports_count, group.count, language) + " · " + localizer.dateTime(group.latest, language),
                reasons: Array(Set(group.reasons)).map { localizer.text($0.textKey, language) }.sorted(),
                notes: group.notes, context: try reportContext(group),
                roomURL: Paths.talkRoom(message?.roomID ?? 0) + "?before=\(group.targetID + 1)#message-\(group.targetID)",
                actionURL: Paths.crew(crew.slug) + "/reports/\(group.targetID)")
        }
        let view = CrewReportsView(crewName: crew.name, crewURL: Paths.crew(crew.slug), reports: reports)
        return page(view, context, title: localizer.text(.talk.reports_title, language), section: .crews)
    }

    /// `POST /crews/:slug/reports/:id`: dismiss the reports of a message, or delete it.
    func crewReportResolve(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, user) = try staffCrew(context)
        guard let id = context.request.parameters["id"].flatMap({ Checked.id($0) }),
              let action = context.form["action"].flatMap(AppDatabase.ContentAction.init(rawValue:)),
              action == .dismiss || action == .delete else { throw HTTPError(.badRequest) }
        media.delete(try storageAction(context) {
            try database.moderation.moderateCrewMessage(action, crewID: crew.storedID, messageID: id, by: user.storedID)
        })
        return redirect(to: Paths.crew(crew.slug) + "/reports", flash: \.moderation_done)
    }
}
