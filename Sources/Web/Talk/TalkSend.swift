import Formats
import Foundation
import HTTP
import Markdown
import Storage

extension App {
    /// `POST /talk/:id`: sends a message, with up to 10 photos. A refused text or photo comes
    /// back in the form with the reason (422), nothing stored; a room the member is not in is 404.
    func talkSend(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        try requireCanPost(user, .messages, context)
        let (room, _) = try memberRoom(context, userID: try user.storedID)
        let form = MessageForm(context.form)
        let uploads = PhotoUploads(context)
        let body: String
        switch form.validate(carriesMore: !uploads.isEmpty) {
        case .success(let text): body = text
        case .failure(let problem):
            return try renderRoom(context, body: form.body, error: localizer.text(problem.key, context.language), status: .unprocessableContent)
        }
        try checkTalkFlood(user, context)
        var errors = FieldErrors()
        let (images, badFile) = try uploads.process(maximum: MessagePhoto.maximumCount, with: media.images, errors: &errors)
        if let problem = errors.localized(localizer, context.language)["photos"] {
            return try renderRoom(context, body: form.body, error: badFile.map { "\($0): \(problem)" } ?? problem, status: .unprocessableContent)
        }
        let content = try messageContent(body)
        let photos = try media.save(images)
        let message: Message
        do {
            message = try database.talk.send(Message(roomID: try room.storedID, authorID: try user.storedID, body: body, bodyHTML: content.bodyHTML,
                                                     replyToID: form.replyToID, createdAt: Date()), photos: photos,
                                             mentions: content.mentionedUserIDs)
        } catch {
            // Refused: the photos stored for it go too.
            media.delete(photos.map(\.fileName))
            if case StorageError.forbidden = error { throw HTTPError(.forbidden, message: localizer.text(.talk.errors.cannot_send, context.language)) }
            if case StorageError.notFound = error, form.replyToID != nil {
                return try renderRoom(context, body: form.body, error: localizer.text(.talk.errors.reply_gone, context.language), status: .unprocessableContent)
            }
            throw error
        }
        talkFlood.record(String(try user.storedID))
        return redirect(to: Paths.talkRoom(try room.storedID) + "#message-\(message.id ?? 0)")
    }

    /// 429 with `Retry-After` for a member sending faster than anyone talks.
    func checkTalkFlood(_ user: User, _ context: RequestContext) throws {
        if let retry = talkFlood.retryAfter(String(try user.storedID)) {
            throw HTTPError(.tooManyRequests, message: localizer.text(.talk.errors.flood, context.language), headers: ["Retry-After": String(retry)])
        }
    }

    /// `GET /talk/messages/:id/edit`: one's own message, within its window.
    func talkEdit(_ context: RequestContext) throws -> HTTPResponse {
        let (message, _) = try editableMessage(context)
        return renderMessageEdit(message, body: message.body, error: nil, context, status: .ok)
    }

    /// `POST /talk/messages/:id/edit`
    func talkUpdate(_ context: RequestContext) throws -> HTTPResponse {
        let (message, user) = try editableMessage(context)
        let form = MessageForm(context.form)
        let body: String
        switch form.validate() {
        case .success(let text): body = text
        case .failure(let problem):
            return renderMessageEdit(message, body: form.body, error: localizer.text(problem.key, context.language), context, status: .unprocessableContent)
        }
        do {
            _ = try database.talk.edit(messageID: try message.storedID, by: try user.storedID, body: body, bodyHTML: try messageContent(body).bodyHTML)
        } catch StorageError.forbidden {
            throw HTTPError(.forbidden, message: localizer.text(.talk.errors.edit_window, context.language))
        }
        return redirect(to: Paths.talkRoom(message.roomID) + "#message-\(message.id ?? 0)")
    }

    /// `POST /talk/messages/:id/delete`: one's own, or any in a crew's rooms for its staff.
    func talkDelete(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let id = context.request.parameters["id"].flatMap({ Checked.id($0) }), let message = try database.talk.message(id: id) else {
            throw HTTPError(.notFound)
        }
        do {
            media.delete(try database.talk.delete(messageID: id, by: try user.storedID))
        } catch StorageError.forbidden {
            throw HTTPError(.forbidden)
        }
        return redirect(to: Paths.talkRoom(message.roomID) + "#message-\(id)")
    }

    private func editableMessage(_ context: RequestContext) throws -> (Message, User) {
        let user = try context.requireUser()
        guard let id = context.request.parameters["id"].flatMap({ Checked.id($0) }), let message = try database.talk.message(id: id),
              try database.talk.room(id: message.roomID, for: try user.storedID) != nil else { throw HTTPError(.notFound) }
        guard message.isEditable(by: try user.storedID, at: Date()) else {
            throw HTTPError(.forbidden, message: localizer.text(.talk.errors.edit_window, context.language))
        }
        return (message, user)
    }

    private func renderMessageEdit(_ message: Message, body: String, error: String?, _ context: RequestContext, status: HTTPStatus) -> HTTPResponse {
        let id = message.id ?? 0
        let view = MessageEditView(action: Paths.talkMessage(id) + "/edit", cancelURL: Paths.talkRoom(message.roomID) + "#message-\(id)",
                                   body: body, error: error)
        return page(view, context, title: localizer.text(.talk.edit_title, context.language), section: .talk, status: status)
    }

    /// A message's HTML: Markdown in its chat style (no headings, no images), mentions linked.
    func messageContent(_ body: String) throws -> PostContent {
        var ids: [String: Int64] = [:]
        var failure: (any Error)? = nil
        let document = MarkdownRenderer.render(body, style: .message) { candidates in
            do { ids = try database.posts.userIDs(usernames: candidates) } catch { failure = error }
            return Set(ids.keys)
        }
        if let failure { throw failure }
        return PostContent(body: body, bodyHTML: document.html, tags: document.tags, mentionedUserIDs: document.mentions.compactMap { ids[$0] })
    }
}
