import CompiledHTML
import Foundation
import HTTP
import Markdown
import Storage

extension App {
    /// `GET /u/:username/feed.atom`
    func userAtom(_ context: RequestContext) throws -> HTTPResponse {
        let user = try profileUser(context)
        let page = try database.feed.userPosts(userID: user.storedID, before: nil, limit: 30, viewerID: nil)
        return atom(title: "\(user.displayName) (@\(user.username)) · Moim", path: Paths.profile(user.username), page, context)
    }

    /// `GET /tags/:tag/feed.atom`
    func tagAtom(_ context: RequestContext) throws -> HTTPResponse {
        guard let written = context.request.parameters["tag"], References.isTag(written) else { throw HTTPError(.notFound) }
        let tag = References.normalise(written)
        let page = try database.feed.tagFeed(tag: tag, before: nil, limit: 30, viewerID: nil)
        return atom(title: "#\(tag) · Moim", path: Paths.tag(tag), page, context)
    }

    /// An Atom 1.0 document (RFC 4287) of a page of posts, with absolute links.
    private func atom(title: String, path: String, _ page: FeedPage, _ context: RequestContext) -> HTTPResponse {
        let base = publicURL(context).origin
        let entries = page.items.map { item in
            let id = item.post.id ?? 0
            return AtomEntryView(
                url: base + Paths.post(id),
                title: item.post.body.split(separator: "\n").first.map { String($0.prefix(80)) } ?? "#\(id)",
                author: item.author.displayName,
                published: InternetDate.format(item.post.createdAt),
                updated: InternetDate.format(item.post.updatedAt ?? item.post.createdAt),
                contentHTML: item.post.bodyHTML)
        }
        let updated = page.items.first.map { InternetDate.format($0.post.updatedAt ?? $0.post.createdAt) } ?? InternetDate.format(Date(timeIntervalSince1970: 0))
        let feed = AtomView(title: title, url: base + path, selfURL: base + context.request.path, updated: updated, entries: entries)
        var writer = HTMLWriter(context.language)
        feed.render(into: &writer)
        var response = HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", "application/atom+xml; charset=utf-8")]), body: writer.bytes)
        response.headers.add("Cache-Control", "public, max-age=300")
        return response
    }
}

/// An Atom 1.0 feed; text is escaped as in HTML, which is valid XML.
struct AtomView {
    static let template = "atom"
    let title: String
    let url: String
    let selfURL: String
    let updated: String
    let entries: [AtomEntryView]
}

struct AtomEntryView {
    /// Also the entry's id: a post's address never changes.
    let url: String
    let title: String
    let author: String
    let published: String
    let updated: String
    /// The post's HTML, escaped into the element's text as `type="html"` asks.
    let contentHTML: String
}
