import Foundation
import HTTP
import Storage

extension App {
    /// What the thread template shows for one comment.
    func commentView(_ entry: ThreadComment, postAuthorID: Int64, _ context: RequestContext) -> [String: Any] {
        let comment = entry.comment
        let id = comment.id ?? 0
        let replyTo = context.form["reply"].flatMap(Checked.id)
        return [
            "id": id,
            "depth": comment.depth,
            "permalink": Paths.comment(id, post: comment.postID),
            "author": userView(entry.author),
            "byPostAuthor": entry.author.id == postAuthorID,
            "bodyHTML": comment.bodyHTML,
            "deleted": comment.deletedAt != nil,
            // Hidden from this viewer (a placeholder), or hidden but shown to its author or staff.
            "hiddenPlaceholder": comment.hiddenAt != nil && comment.bodyHTML.isEmpty,
            "hidden": comment.hiddenAt != nil && !comment.bodyHTML.isEmpty,
            "edited": comment.updatedAt != nil && comment.deletedAt == nil,
            "date": localizer.dateTime(comment.createdAt, context.language),
            "isAuthor": context.user?.id == entry.author.id && comment.deletedAt == nil,
            "replyURL": Paths.post(comment.postID) + "?reply=\(id)#comment-\(id)",
            "replying": replyTo == id && context.user != nil,
            "editURL": "/comments/\(id)/edit",
            "deleteURL": "/comments/\(id)/delete",
            "reportURL": "/reports/new?target_type=comment&target_id=\(id)&return_to=" + PercentEncoding.encode(Paths.comment(id, post: comment.postID)),
        ]
    }
}
