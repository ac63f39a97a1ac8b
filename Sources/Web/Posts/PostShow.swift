import HTTP
import Storage

extension App {
    /// `GET /posts/:id`: the post and its comment thread.
    func postShow(_ context: RequestContext) throws -> HTTPResponse {
        let item = try feedItem(context)
        let language = context.language
        let thread = try database.thread(postID: item.post.storedID, viewerID: context.user?.id)
        let title = item.post.body.isEmpty
            ? localizer.text("posts.title_by", language, ["name": item.author.displayName])
            : String(item.post.body.prefix(60))
        var post = postView(item, context)
        post["report"] = reportView(.post, try item.post.storedID, context)
        // Crew staff moderate the posts written in their crew.
        if let crewID = item.post.crewID, let viewer = context.user, item.author.id != viewer.id,
           try database.crewRole(crewID: crewID, userID: viewer.storedID)?.isStaff == true {
            post["canModerate"] = true
        }
        return try render("post", context, title: title, section: .feed, [
            "post": post,
            "comments": thread.map { commentView($0, postAuthorID: item.post.authorID, context) },
            "hasComments": !thread.isEmpty,
            "replyTo": context.form["reply"].flatMap(Checked.id) as Any,
        ])
    }

    /// The post named by the `:id` parameter, as the viewer sees it, or 404.
    func feedItem(_ context: RequestContext) throws -> FeedItem {
        guard let id = context.request.parameters["id"].flatMap(Checked.id),
              let item = try database.feedItem(postID: id, viewerID: context.user?.id)
        else { throw HTTPError(.notFound) }
        return item
    }
}
