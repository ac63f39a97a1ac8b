import Foundation
import HTTP
import Storage

/// One comment of a thread.
struct CommentView {
    let id: Int64
    let depth: Int
    let permalink: String
    let author: UserView
    let byPostAuthor: Bool
    let bodyHTML: String
    let deleted: Bool
    /// Hidden from this viewer: a placeholder stands in its place.
    let hiddenPlaceholder: Bool
    /// Hidden, but shown to its author or staff with a note.
    let hidden: Bool
    let edited: Bool
    let posted: Moment
    let isAuthor: Bool
    let replyURL: String
    /// The reply form is open under this comment (`?reply=id`).
    let replying: Bool
    let editURL: String
    let deleteURL: String
    let reportURL: String
}

extension App {
    /// What the thread template shows for one comment.
    func commentView(_ entry: ThreadComment, postAuthorID: Int64, _ context: RequestContext) -> CommentView {
        let comment = entry.comment
        let id = comment.id ?? 0
        let replyTo = context.form["reply"].flatMap(Checked.id)
        return CommentView(
            id: id,
            depth: comment.depth,
            permalink: Paths.comment(id, post: comment.postID),
            author: UserView(entry.author),
            byPostAuthor: entry.author.id == postAuthorID,
            bodyHTML: comment.bodyHTML,
            deleted: comment.deletedAt != nil,
            hiddenPlaceholder: comment.hiddenAt != nil && comment.bodyHTML.isEmpty,
            hidden: comment.hiddenAt != nil && !comment.bodyHTML.isEmpty,
            edited: comment.updatedAt != nil && comment.deletedAt == nil,
            posted: localizer.moment(comment.createdAt, context.language),
            isAuthor: context.user?.id == entry.author.id && comment.deletedAt == nil,
            replyURL: Paths.post(comment.postID) + "?reply=\(id)#comment-\(id)",
            replying: replyTo == id && context.user != nil,
            editURL: "/comments/\(id)/edit",
            deleteURL: "/comments/\(id)/delete",
            reportURL: "/reports/new?target_type=comment&target_id=\(id)&return_to=" + PercentEncoding.encode(Paths.comment(id, post: comment.postID))
        )
    }
}
