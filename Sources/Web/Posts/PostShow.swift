import Formats
import HTTP
import Markdown
import Storage

/// A post with its comment thread.
struct PostPageView: PageView {
    static let template = "post"
    let post: PostCardView
    let report: ReportFormView
    /// Crew staff moderate the posts written in their crew.
    let canModerate: Bool
    let comments: [CommentView]
    var hasComments: Bool { !comments.isEmpty }
}

extension App {
    /// `GET /posts/:id`: the post and its comment thread.
    func postShow(_ context: RequestContext) throws -> HTTPResponse {
        let item = try feedItem(context)
        let language = context.language
        let thread = try database.comments.thread(postID: item.post.storedID, viewerID: context.user?.id)
        // The words as the page shows them, not the Markdown that makes them.
        let words = MarkdownRenderer.plainText(item.post.body)
        let title = words.isEmpty ? localizer.text(.posts.title_by, language, ["name": item.author.displayName]) : words.clipped(60)
        let replyingTo = context.form["reply"].flatMap(Checked.id)
        var canModerate = false
        if let crewID = item.post.crewID, let viewer = context.user, item.author.id != viewer.id {
            canModerate = try database.crews.crewRole(crewID: crewID, userID: viewer.storedID)?.isStaff == true
        }
        let view = PostPageView(
            post: postCard(item, context, first: true),
            report: reportForm(.post, try item.post.storedID, context),
            canModerate: canModerate,
            comments: thread.map { commentView($0, postAuthorID: item.post.authorID, replyingTo: replyingTo, context) }
        )
        return page(view, context, title: title, section: .feed)
    }

    /// The post named by the `:id` parameter, as the viewer sees it, or 404.
    func feedItem(_ context: RequestContext) throws -> FeedItem {
        guard let id = context.request.parameters["id"].flatMap(Checked.id),
              let item = try database.feed.feedItem(postID: id, viewerID: context.user?.id)
        else { throw HTTPError(.notFound) }
        return item
    }
}
