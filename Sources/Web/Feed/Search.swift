import HTTP
import Markdown
import Storage

/// Search results: people, tags and posts (with the match marked).
struct SearchView: PageView {
    static let template = "search"
    let query: String
    var searched: Bool { !query.isEmpty }
    var posts: [PostCardView] = []
    var users: [UserView] = []
    var tags: [TagCountView] = []
    var hasPosts: Bool { !posts.isEmpty }
    var hasUsers: Bool { !users.isEmpty }
    var hasTags: Bool { !tags.isEmpty }
    var nothingFound: Bool { posts.isEmpty && users.isEmpty && tags.isEmpty }
}

struct TagCountView {
    let tag: String
    let url: String
    let count: String
}

extension App {
    /// `GET /search?q=`: posts (ranked, matches marked), people and tags.
    func search(_ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        let query = SearchText(context.form["q"] ?? "").text
        var view = SearchView(query: query)
        if !query.isEmpty {
            let tagQuery = References.normalise(query.hasPrefix("#") ? String(query.dropFirst()) : query)
            view.posts = try database.feed.searchPosts(query, viewerID: context.user?.id).map { match in
                postCard(match.item, context, excerptHTML: Self.markedExcerpt(match.excerpt))
            }
            view.users = try database.feed.searchUsers(query.hasPrefix("@") ? String(query.dropFirst()) : query, viewerID: context.user?.id).map(UserView.init)
            view.tags = try database.feed.searchTags(tagQuery).map {
                TagCountView(tag: $0.tag, url: Paths.tag($0.tag), count: localizer.number($0.posts, language))
            }
        }
        return page(view, context, title: localizer.text(.search.title, language))
    }

    /// Escapes an excerpt, then turns the match markers into `<mark>`: user text never
    /// becomes markup.
    /// (Each part between markers is escaped in turn: Foundation's `replacingOccurrences` took
    /// 10 µs an excerpt.)
    static func markedExcerpt(_ excerpt: String) -> String {
        var html = "", part = ""
        for character in excerpt {
            guard character == SearchMarker.startCharacter || character == SearchMarker.endCharacter else {
                part.append(character)
                continue
            }
            html += HTMLEscaping.escape(part) + (character == SearchMarker.startCharacter ? "<mark>" : "</mark>")
            part = ""
        }
        return html + HTMLEscaping.escape(part)
    }
}
