import Formats
import Foundation
import HTTP
import Storage

extension App {
    /// `GET /crews/:slug/retros`: the crew's retrospectives; staff create them here.
    func retroList(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, role) = try retroCrew(context)
        let language = context.language
        let now = Date()
        var view = try crewPage(crew, tab: .retros, role: role, context)
        view.retrosTab = CrewRetrosTab(
            retros: try database.retros(crewID: crew.storedID).map { retro in
                RetroRowView(
                    name: retro.name, url: Paths.retro(retro, crew: crew.slug), when: localizer.dateTime(retro.startsAt, language),
                    state: localizer.text(retro.closedAt != nil ? "retros.closed" : retro.hasStarted(at: now) ? "retros.open" : "retros.upcoming", language))
            },
            newStart: MeetupForm.local(now.addingTimeInterval(7 * 86_400), localizer.timeZone),
            timeZone: Formatters.offsetName(localizer.timeZone, at: Date()))
        return renderCrew(view, crew, context)
    }

    /// `POST /crews/:slug/retros`: staff only.
    func retroCreate(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, user) = try staffCrew(context)
        let name = (context.form["name"] ?? "").trimmed
        guard name.isName(1, 60),
              let start = Checked.localDateTime((context.form["starts_at"] ?? "").trimmed, in: localizer.timeZone)
        else { throw HTTPError(.unprocessableContent, message: localizer.text("retros.errors.form", context.language)) }
        let retro = try storageAction(context, Self.crewRefusals) { try database.createRetro(crewID: crew.storedID, by: user.storedID, name: name, startsAt: start) }
        return redirect(to: Paths.retro(retro, crew: crew.slug), flash: "retro_created")
    }

    /// `GET /crews/:slug/retros/:id`: before the start, the form and what you wrote; from the
    /// start, the keywords you received.
    func retroShow(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, role) = try retroCrew(context)
        guard let user = context.user, let retro = try retro(context, crew) else { throw HTTPError(.notFound) }
        var view = try crewPage(crew, tab: .retros, role: role, context)
        view.retrosTab = try retroTab(retro, base: Paths.retro(retro, crew: crew.slug), manages: role?.isStaff == true, user: user, context)
        return renderCrew(view, crew, context)
    }

    /// A retro as its participants see it: the form and what they wrote before the start,
    /// what they received from then on. Shared by crews' and meetups' retros.
    func retroTab(_ retro: Retro, base: String, manages: Bool, user: User, _ context: RequestContext) throws -> CrewRetrosTab {
        let language = context.language
        let now = Date()
        let written = try database.feedbackWritten(retroID: retro.storedID, authorID: user.storedID)
        let received = try database.feedbackReceived(retroID: retro.storedID, recipientID: user.storedID, now: now)
        let chip = { (item: (feedback: Feedback, author: User)) in
            FeedbackChipView(keyword: item.feedback.keyword, description: item.feedback.description,
                             toStart: item.feedback.toStart.nilIfEmpty, author: item.author.displayName)
        }
        var tab = CrewRetrosTab(
            retro: RetroView(
                name: retro.name, url: base, when: localizer.dateTime(retro.startsAt, language),
                started: retro.hasStarted(at: now), closed: retro.closedAt != nil,
                canClose: manages && retro.hasStarted(at: now) && retro.closedAt == nil))
        tab.recipients = try database.retroMembers(retro).filter { $0.id != user.id }
            .map { Choice(value: $0.username, label: $0.displayName, selected: false) }
        tab.written = written.map { item in
            WrittenFeedbackView(
                recipient: item.recipient.displayName, keyword: item.feedback.keyword,
                kind: localizer.text("retros.kind.\(item.feedback.kind.rawValue)", language), description: item.feedback.description,
                isContinue: item.feedback.kind == .continue, editURL: base + "/feedback/\(item.feedback.id ?? 0)")
        }
        tab.keepGoing = received.filter { $0.feedback.kind == .continue }.map(chip)
        tab.stopDoing = received.filter { $0.feedback.kind == .stop }.map(chip)
        return tab
    }

    /// `POST /crews/:slug/retros/:id/feedback`: leave feedback for one member.
    func feedbackCreate(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, _) = try retroCrew(context)
        guard let user = context.user, let retro = try retro(context, crew) else { throw HTTPError(.notFound) }
        return try saveFeedback(retro, base: Paths.retro(retro, crew: crew.slug), user: user, context)
    }

    /// Leaves feedback in `retro` for the member named by `recipient`.
    func saveFeedback(_ retro: Retro, base: String, user: User, _ context: RequestContext) throws -> HTTPResponse {
        let fields = try feedbackFields(context)
        guard let recipient = try context.form["recipient"].flatMap({ try database.user(username: $0) }),
              try database.retroMembers(retro).contains(where: { $0.id == recipient.id && $0.id != user.id })
        else {
            throw HTTPError(.unprocessableContent, message: localizer.text("retros.errors.recipient", context.language))
        }
        let feedback = Feedback(retroID: try retro.storedID, authorID: try user.storedID, recipientID: try recipient.storedID, kind: fields.kind,
                                keyword: fields.keyword, description: fields.description, toStart: fields.toStart)
        do {
            _ = try database.addFeedback(feedback)
        } catch StorageError.forbidden {
            throw HTTPError(.conflict, message: localizer.text("retros.errors.started", context.language))
        }
        return redirect(to: base, flash: "feedback_saved")
    }

    /// `POST /crews/:slug/retros/:id/feedback/:fid`: change or (with `delete`) remove one's own.
    func feedbackUpdate(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, _) = try retroCrew(context)
        guard let user = context.user, let retro = try retro(context, crew) else { throw HTTPError(.notFound) }
        return try changeFeedback(base: Paths.retro(retro, crew: crew.slug), user: user, context)
    }

    /// Changes or (with `delete`) removes one's own feedback, named by `:fid`.
    func changeFeedback(base: String, user: User, _ context: RequestContext) throws -> HTTPResponse {
        guard let id = context.request.parameters["fid"].flatMap(Checked.id) else { throw HTTPError(.notFound) }
        let delete = context.form["delete"] == "1"
        let fields = delete ? (kind: Feedback.Kind.continue, keyword: "", description: "", toStart: "") : try feedbackFields(context)
        do {
            try database.changeFeedback(id: id, authorID: user.storedID, keyword: fields.keyword, description: fields.description,
                                        toStart: fields.toStart, kind: fields.kind, delete: delete)
        } catch StorageError.forbidden {
            throw HTTPError(.conflict, message: localizer.text("retros.errors.started", context.language))
        } catch StorageError.notFound {
            throw HTTPError(.notFound)
        }
        return redirect(to: base, flash: delete ? "feedback_deleted" : "feedback_saved")
    }

    /// `POST /crews/:slug/retros/:id/close`: staff, once it has started.
    func retroClose(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, user) = try staffCrew(context)
        guard let retro = try retro(context, crew) else { throw HTTPError(.notFound) }
        try storageAction(context, Self.crewRefusals) { try database.closeRetro(id: retro.storedID, by: user.storedID) }
        return redirect(to: Paths.crew(crew.slug) + "/retros", flash: "retro_closed")
    }

    /// The crew of `:slug` when the signed-in user is a member; 403 for others signed in.
    private func retroCrew(_ context: RequestContext) throws -> (Crew, CrewRole?) {
        let user = try context.requireUser()
        let crew = try crew(context)
        let role = try database.crewRole(crewID: crew.storedID, userID: user.storedID)
        guard role?.isMember == true else { throw HTTPError(.forbidden, message: localizer.text("retros.errors.members_only", context.language)) }
        return (crew, role)
    }

    private func retro(_ context: RequestContext, _ crew: Crew) throws -> Retro? {
        guard let id = context.request.parameters["id"].flatMap(Checked.id), let retro = try database.retro(id: id), retro.crewID == crew.id else { return nil }
        return retro
    }

    private func feedbackFields(_ context: RequestContext) throws -> (kind: Feedback.Kind, keyword: String, description: String, toStart: String) {
        let keyword = (context.form["keyword"] ?? "").trimmed
        let description = (context.form["description"] ?? "").trimmed
        let toStart = (context.form["to_start"] ?? "").trimmed
        guard let kind = context.form["kind"].flatMap(Feedback.Kind.init(rawValue:)), keyword.isName(1, 10), description.fits(1, 400),
              toStart.fits(0, 200)
        else { throw HTTPError(.unprocessableContent, message: localizer.text("retros.errors.feedback", context.language)) }
        return (kind, keyword, description, toStart)
    }
}

/// Every keyword a member received, private to them.
struct FeedbackArchiveView: PageView {
    static let template = "feedback"
    /// Keywords that came back more than once, with how often.
    let counts: [KeywordCountView]
    let items: [ReceivedFeedbackView]
    var hasItems: Bool { !items.isEmpty }
}

struct KeywordCountView {
    let keyword: String
    let count: Int
}

struct ReceivedFeedbackView {
    let keyword: String
    let description: String
    let crew: String
    let retro: String
    let kind: String
    let isContinue: Bool
    let date: String
}

/// The retrospectives tab: the list (and, for staff, the form to start one), or one of them.
struct CrewRetrosTab {
    var retros: [RetroRowView] = []
    var newStart: String = ""
    var timeZone: String = ""
    /// The one shown; nil on the list.
    var retro: RetroView?
    var recipients: [Choice] = []
    var written: [WrittenFeedbackView] = []
    var keepGoing: [FeedbackChipView] = []
    var stopDoing: [FeedbackChipView] = []
    var hasKeepGoing: Bool { !keepGoing.isEmpty }
    var hasStopDoing: Bool { !stopDoing.isEmpty }
    var hasReceived: Bool { hasKeepGoing || hasStopDoing }
    var hasWritten: Bool { !written.isEmpty }
}

struct RetroRowView {
    let name: String
    let url: String
    let when: String
    let state: String
}

struct RetroView {
    let name: String
    let url: String
    let when: String
    let started: Bool
    let closed: Bool
    let canClose: Bool
}

/// Feedback received: the keyword and what was written with it.
struct FeedbackChipView {
    let keyword: String
    let description: String
    let toStart: String?
    let author: String
}

struct WrittenFeedbackView {
    let recipient: String
    let keyword: String
    let kind: String
    let description: String
    let isContinue: Bool
    let editURL: String
}
