import Formats
import Foundation
import HTTP
import Storage

extension App {
    /// `POST /crews/:slug/retros/:id/feedback`: leave feedback for one member.
    func feedbackCreate(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, _) = try retroCrew(context)
        guard let user = context.user, let retro = try retro(context, crew) else { throw HTTPError(.notFound) }
        return try saveFeedback(retro, base: Paths.retro(retro, crew: crew.slug), user: user, context)
    }

    /// Leaves feedback in `retro` for the member named by `recipient`.
    func saveFeedback(_ retro: Retro, base: String, user: User, _ context: RequestContext) throws -> HTTPResponse {
        let fields = try feedbackFields(context)
        guard let recipient = try context.form["recipient"].flatMap({ try database.accounts.user(username: $0) }),
              try database.retros.retroMembers(retro).contains(where: { $0.id == recipient.id && $0.id != user.id })
        else {
            throw HTTPError(.unprocessableContent, message: localizer.text(.retros.errors.recipient, context.language))
        }
        let feedback = Feedback(retroID: try retro.storedID, authorID: try user.storedID, recipientID: try recipient.storedID, kind: fields.kind,
                                keyword: fields.keyword, description: fields.description, toStart: fields.toStart)
        do {
            _ = try database.retros.addFeedback(feedback)
        } catch StorageError.forbidden {
            throw HTTPError(.conflict, message: localizer.text(.retros.errors.started, context.language))
        }
        return redirect(to: base, flash: \.feedback_saved)
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
            try database.retros.changeFeedback(id: id, authorID: user.storedID, keyword: fields.keyword, description: fields.description,
                                        toStart: fields.toStart, kind: fields.kind, delete: delete)
        } catch StorageError.forbidden {
            throw HTTPError(.conflict, message: localizer.text(.retros.errors.started, context.language))
        } catch StorageError.notFound {
            throw HTTPError(.notFound)
        }
        return redirect(to: base, flash: delete ? \.feedback_deleted : \.feedback_saved)
    }

    func feedbackFields(_ context: RequestContext) throws -> (kind: Feedback.Kind, keyword: String, description: String, toStart: String) {
        let keyword = (context.form["keyword"] ?? "").trimmed
        let description = (context.form["description"] ?? "").trimmed
        let toStart = (context.form["to_start"] ?? "").trimmed
        guard let kind = context.form["kind"].flatMap(Feedback.Kind.init(rawValue:)), keyword.isName(1, 10), description.fits(1, 400),
              toStart.fits(0, 200)
        else { throw HTTPError(.unprocessableContent, message: localizer.text(.retros.errors.feedback, context.language)) }
        return (kind, keyword, description, toStart)
    }
}
