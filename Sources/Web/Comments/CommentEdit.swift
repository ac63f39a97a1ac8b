import Formats
import HTTP
import Storage

extension App {
    /// `GET /comments/:id/edit`
    func commentEdit(_ context: RequestContext) throws -> HTTPResponse {
        let (comment, _) = try ownComment(context)
        return renderCommentForm(comment, body: comment.body, error: nil, context)
    }

    /// `POST /comments/:id/edit`
    func commentUpdate(_ context: RequestContext) throws -> HTTPResponse {
        let (comment, user) = try ownComment(context)
        let body = (context.form["body"] ?? "").trimmed
        guard body.fits(1, Self.maximumCommentLength) else {
            return renderCommentForm(comment, body: body, error: .errors.comment_length, context)
        }
        let id = try comment.storedID
        _ = try database.comments.editComment(id: id, authorID: user.storedID, content: postContent(body))
        return redirect(to: Paths.comment(id, post: comment.postID))
    }

    /// `POST /comments/:id/delete`
    func commentDelete(_ context: RequestContext) throws -> HTTPResponse {
        let (comment, user) = try ownComment(context)
        try database.comments.deleteComment(id: comment.storedID, authorID: user.storedID)
        return redirect(to: Paths.post(comment.postID) + "#comments", flash: \.comment_deleted)
    }

    /// The signed-in user's own, undeleted comment named by `:id`, or 404.
    private func ownComment(_ context: RequestContext) throws -> (Comment, User) {
        let user = try context.requireUser()
        guard let id = context.request.parameters["id"].flatMap(Checked.id),
              let comment = try database.comments.comment(id: id), comment.authorID == user.id, comment.deletedAt == nil
        else { throw HTTPError(.notFound) }
        return (comment, user)
    }

    private func renderCommentForm(_ comment: Comment, body: String, error: TextKey?, _ context: RequestContext) -> HTTPResponse {
        let view = CommentFormView(
            body: body, action: "/comments/\(comment.id ?? 0)/edit", cancelURL: Paths.comment(comment.id ?? 0, post: comment.postID),
            error: error.map { localizer.text($0, context.language) })
        return page(view, context, title: localizer.text(.comments.edit_title, context.language), section: .feed,
                    status: error == nil ? .ok : .unprocessableContent)
    }
}

/// Editing one's comment.
struct CommentFormView: PageView {
    static let template = "comment-form"
    let body: String
    let action: String
    let cancelURL: String
    let error: String?
}
