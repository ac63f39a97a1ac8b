import HTTP
import Markdown

extension App {
    /// `GET /tags/:tag`: posts with the tag, however it was capitalised.
    func tagShow(_ context: RequestContext) throws -> HTTPResponse {
        guard let written = context.request.parameters["tag"], References.isTag(written) else { throw HTTPError(.notFound) }
        let tag = References.normalise(written)
        let page = try database.tagFeed(tag: tag, before: cursor(context), viewerID: context.user?.id)
        var view = feedView(page, path: Paths.tag(tag), context)
        view["tag"] = tag
        view["atomURL"] = Paths.tagFeed(tag)
        return try render("tag", context, title: "#" + tag, section: .feed, view)
    }
}
