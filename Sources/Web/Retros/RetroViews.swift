import Formats
import Foundation
import HTTP
import Storage

extension App {
    /// The crew of `:slug` when the signed-in user is a member; 403 for others signed in.
    func retroCrew(_ context: RequestContext) throws -> (Crew, CrewRole?) {
        let user = try context.requireUser()
        let crew = try crew(context)
        let role = try database.crews.crewRole(crewID: crew.storedID, userID: user.storedID)
        guard role?.isMember == true else { throw HTTPError(.forbidden, message: localizer.text(.retros.errors.members_only, context.language)) }
        return (crew, role)
    }

    /// The retrospective of `:id` when it is `crew`'s, else nil.
    func retro(_ context: RequestContext, _ crew: Crew) throws -> Retro? {
        guard let id = context.request.parameters["id"].flatMap(Checked.id), let retro = try database.retros.retro(id: id), retro.crewID == crew.id else { return nil }
        return retro
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
    /// For the ids of its edit form's fields.
    let id: Int64
    let recipient: String
    let keyword: String
    let kind: String
    let description: String
    let toStart: String
    let isContinue: Bool
    let editURL: String
}
