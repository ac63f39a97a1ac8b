import HTTP
import Storage

extension App {
    /// `GET /posts/:id`: the post and its comment thread.
    func postShow(_ context: RequestContext) throws -> HTTPResponse {
        let item = try feedItem(context)
        let language = context.language
        let thread = try database.thread(postID: item.post.storedID)
        let title = item.post.body.isEmpty
            ? localizer.text("posts.title_by", language, ["name": item.author.displayName])
            : String(item.post.body.prefix(60))
        return try render("post", context, title: title, section: .feed, [
            "post": postView(item, context),
            "comments": thread.map { commentView($0, postAuthorID: item.post.authorID, context) },
            "hasComments": !thread.isEmpty,
            "replyTo": context.form["reply"].flatMap(Int64.init) as Any,
        ])
    }

    /// The post named by the `:id` parameter, as the viewer sees it, or 404.
    func feedItem(_ context: RequestContext) throws -> FeedItem {
        guard let id = context.request.parameters["id"].flatMap(Int64.init),
              let item = try database.feedItem(postID: id, viewerID: context.user?.id)
        else { throw HTTPError(.notFound) }
        return item
    }
}
