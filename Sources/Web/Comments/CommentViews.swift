import CompiledHTML
import Foundation
import HTTP
import Storage

/// One comment of a thread: its byline and body come rendered (`FragmentCache`), the rest
/// is this reader's.
struct CommentView {
    let id: Int64
    let postID: Int64
    let depth: Int
    let deleted: Bool
    /// Hidden from this viewer: a placeholder stands in its place.
    let hiddenPlaceholder: Bool
    /// Up to the `<time>` it was written (`CommentBylineView`).
    let byline: HTMLFragment
    /// "3 min ago", or the date after a week.
    let postedText: String
    /// What follows the time: edited, the moderators' note, the body (`CommentContentView`).
    let content: HTMLFragment
    let authorName: String
    let isAuthor: Bool
    /// The reply form is open under this comment (`?reply=id`).
    let replying: Bool
    var replyURL: String { Paths.post(postID) + "?reply=\(id)#comment-\(id)" }
    var editURL: String { "/comments/\(id)/edit" }
    var deleteURL: String { "/comments/\(id)/delete" }
    var reportURL: String { Paths.reportNew(.comment, id, returnTo: Paths.comment(id, post: postID)) }
}

/// Everything a comment's kept parts are rendered from.
struct CommentSource: Equatable, Sendable {
    let bodyHTML: String
    let createdAt: Date
    let updatedAt: Date?
    let deletedAt: Date?
    let hiddenAt: Date?
    let author: Author
    let byPostAuthor: Bool
}

/// A comment's author and link, up to the time it was written.
struct CommentBylineView {
    static let template = "comment-byline"
    let author: UserView
    let byPostAuthor: Bool
    let permalink: String
    let iso: String
    let exact: String
}

/// What follows a comment's time: edited, the moderators' note, the body.
struct CommentContentView {
    static let template = "comment-content"
    let edited: Bool
    let hidden: Bool
    let bodyHTML: String
}

extension App {
    /// What the thread template shows for one comment.
    /// `replyingTo` is the comment whose reply form is open (`?reply=id`), read once per page.
    func commentView(_ entry: ThreadComment, postAuthorID: Int64, replyingTo: Int64?, _ context: RequestContext) -> CommentView {
        let comment = entry.comment
        let id = comment.id ?? 0
        let language = context.language
        let byPostAuthor = entry.author.id == postAuthorID
        let source = CommentSource(
            bodyHTML: comment.bodyHTML, createdAt: comment.createdAt, updatedAt: comment.updatedAt, deletedAt: comment.deletedAt,
            hiddenAt: comment.hiddenAt, author: entry.author, byPostAuthor: byPostAuthor)
        let fragments = commentCards.fragments(.init(id: id, language: language.templateIndex), source) {
            .init(
                byline: CommentBylineView(
                    author: UserView(entry.author), byPostAuthor: byPostAuthor, permalink: Paths.comment(id, post: comment.postID),
                    iso: InternetDate.format(comment.createdAt), exact: localizer.dateTime(comment.createdAt, language)),
                content: CommentContentView(
                    edited: comment.updatedAt != nil && comment.deletedAt == nil,
                    hidden: comment.hiddenAt != nil && !comment.bodyHTML.isEmpty,
                    bodyHTML: comment.bodyHTML),
                language: language, size: comment.bodyHTML.utf8.count)
        }
        return CommentView(
            id: id,
            postID: comment.postID,
            depth: comment.depth,
            deleted: comment.deletedAt != nil,
            hiddenPlaceholder: comment.hiddenAt != nil && comment.bodyHTML.isEmpty,
            byline: fragments.byline,
            postedText: localizer.momentText(comment.createdAt, language),
            content: fragments.content,
            authorName: entry.author.displayName,
            isAuthor: context.user?.id == entry.author.id && comment.deletedAt == nil,
            replying: replyingTo == id && context.user != nil
        )
    }
}
