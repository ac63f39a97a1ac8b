import HTTP
import Markdown
import Storage

extension App {
    /// `GET /search?q=`: posts (ranked, matches marked), people and tags.
    func search(_ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        let query = SearchText(context.form["q"] ?? "").text
        var view: [String: Any] = ["query": query, "searched": !query.isEmpty]
        if !query.isEmpty {
            let tagQuery = References.normalise(query.hasPrefix("#") ? String(query.dropFirst()) : query)
            let posts = try database.searchPosts(query, viewerID: context.user?.id)
            let users = try database.searchUsers(query.hasPrefix("@") ? String(query.dropFirst()) : query)
            let tags = try database.searchTags(tagQuery)
            view["posts"] = posts.map { match -> [String: Any] in
                var post = postView(match.item, context)
                post["excerptHTML"] = Self.markedExcerpt(match.excerpt)
                return post
            }
            view["users"] = users.map(userView)
            view["tags"] = tags.map { ["tag": $0.tag, "url": Paths.tag($0.tag), "count": localizer.number($0.posts, language)] as [String: Any] }
            view["hasPosts"] = !posts.isEmpty
            view["hasUsers"] = !users.isEmpty
            view["hasTags"] = !tags.isEmpty
            view["nothingFound"] = posts.isEmpty && users.isEmpty && tags.isEmpty
        }
        return try render("search", context, title: localizer.text("search.title", language), view)
    }

    /// Escapes an excerpt, then turns the match markers into `<mark>`: user text never
    /// becomes markup.
    static func markedExcerpt(_ excerpt: String) -> String {
        HTMLEscaping.escape(excerpt)
            .replacingOccurrences(of: SearchMarker.start, with: "<mark>")
            .replacingOccurrences(of: SearchMarker.end, with: "</mark>")
    }
}
