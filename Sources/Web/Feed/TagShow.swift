import HTTP
import Markdown

/// Posts with one tag.
struct TagView: PageView {
    static let template = "tag"
    let tag: String
    let atomURL: String
    let posts: [PostCardView]
    var hasPosts: Bool { !posts.isEmpty }
    let olderURL: String?
}

extension App {
    /// `GET /tags/:tag`: posts with the tag, however it was capitalised.
    func tagShow(_ context: RequestContext) throws -> HTTPResponse {
        guard let written = context.request.parameters["tag"], References.isTag(written) else { throw HTTPError(.notFound) }
        let tag = References.normalise(written)
        let feed = feed(try database.feed.tagFeed(tag: tag, before: cursor(context), viewerID: context.user?.id), path: Paths.tag(tag), context)
        let view = TagView(tag: tag, atomURL: Paths.tagFeed(tag), posts: feed.posts, olderURL: feed.olderURL)
        return page(view, context, title: "#" + tag, section: .feed)
    }
}
