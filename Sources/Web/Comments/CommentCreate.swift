import Formats
import HTTP
import Storage

extension App {
    static let maximumCommentLength = 5000

    /// `POST /posts/:id/comments`: a comment, or a reply when `parent` is set.
    func commentCreate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        try requireCanPost(user, .comments, context)
        guard let postID = context.request.parameters["id"].flatMap(Checked.id) else { throw HTTPError(.notFound) }
        let body = try shortText(context, maximum: Self.maximumCommentLength, message: .errors.comment_length)
        let parentID = try context.form["parent"].flatMap { $0.isEmpty ? nil : $0 }.map { text -> Int64 in
            guard let id = Checked.id(text) else { throw HTTPError(.badRequest) }
            return id
        }
        let comment: Comment
        do {
            comment = try database.comments.addComment(postID: postID, authorID: user.storedID, parentID: parentID, content: postContent(body))
        } catch StorageError.notFound {
            throw HTTPError(.notFound)
        } catch StorageError.forbidden {
            throw HTTPError(.forbidden, message: localizer.text(.moderation.cannot_comment, context.language))
        }
        return redirect(to: Paths.comment(try comment.storedID, post: postID))
    }
}
