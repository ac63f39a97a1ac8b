import Foundation
import HTTP
import Storage

extension App {
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
        let written = try database.retros.feedbackWritten(retroID: retro.storedID, authorID: user.storedID)
        let received = try database.retros.feedbackReceived(retroID: retro.storedID, recipientID: user.storedID, now: now)
        let chip = { (item: (feedback: Feedback, author: User)) in
            FeedbackChipView(keyword: item.feedback.keyword, description: item.feedback.description,
                             toStart: item.feedback.toStart.nilIfEmpty, author: item.author.displayName)
        }
        var tab = CrewRetrosTab(
            retro: RetroView(
                name: retro.name, url: base, when: localizer.dateTime(retro.startsAt, language),
                started: retro.hasStarted(at: now), closed: retro.closedAt != nil,
                canClose: manages && retro.hasStarted(at: now) && retro.closedAt == nil))
        tab.recipients = try database.retros.retroMembers(retro).filter { $0.id != user.id }
            .map { Choice(value: $0.username, label: $0.displayName, selected: false) }
        tab.written = written.map { item in
            WrittenFeedbackView(
                id: item.feedback.id ?? 0, recipient: item.recipient.displayName, keyword: item.feedback.keyword,
                kind: localizer.text(item.feedback.kind.textKey, language), description: item.feedback.description,
                toStart: item.feedback.toStart, isContinue: item.feedback.kind == .continue,
                editURL: base + "/feedback/\(item.feedback.id ?? 0)")
        }
        tab.keepGoing = received.filter { $0.feedback.kind == .continue }.map(chip)
        tab.stopDoing = received.filter { $0.feedback.kind == .stop }.map(chip)
        return tab
    }
}
