import Foundation
import HTTP
import Markdown
import Storage

extension App {
    /// `GET /u/:username/feed.atom`
    func userAtom(_ context: RequestContext) throws -> HTTPResponse {
        let user = try profileUser(context)
        let page = try database.userPosts(userID: user.storedID, before: nil, limit: 30, viewerID: nil)
        return try atom(title: "\(user.displayName) (@\(user.username)) · Moim", path: Paths.profile(user.username), page, context)
    }

    /// `GET /tags/:tag/feed.atom`
    func tagAtom(_ context: RequestContext) throws -> HTTPResponse {
        guard let written = context.request.parameters["tag"], References.isTag(written) else { throw HTTPError(.notFound) }
        let tag = References.normalise(written)
        let page = try database.tagFeed(tag: tag, before: nil, limit: 30, viewerID: nil)
        return try atom(title: "#\(tag) · Moim", path: Paths.tag(tag), page, context)
    }

    /// An Atom 1.0 document (RFC 4287) of a page of posts, with absolute links.
    private func atom(title: String, path: String, _ page: FeedPage, _ context: RequestContext) throws -> HTTPResponse {
        let base = "\(configuration.secureCookies ? "https" : "http")://\(context.request.headers["host"] ?? "localhost")"
        let entries: [[String: Any]] = page.items.map { item in
            let id = item.post.id ?? 0
            return [
                "url": base + Paths.post(id),
                "id": "\(base)\(Paths.post(id))",
                "title": item.post.body.split(separator: "\n").first.map { String($0.prefix(80)) } ?? "#\(id)",
                "author": item.author.displayName,
                "published": InternetDate.format(item.post.createdAt),
                "updated": InternetDate.format(item.post.updatedAt ?? item.post.createdAt),
                "contentHTML": item.post.bodyHTML,
            ]
        }
        let updated = page.items.first.map { InternetDate.format($0.post.updatedAt ?? $0.post.createdAt) } ?? InternetDate.format(Date(timeIntervalSince1970: 0))
        let xml = try templates.render("atom", context.language, [
            "title": title, "url": base + path, "self": base + context.request.path, "updated": updated, "entries": entries,
        ])
        var response = HTTPResponse(status: .ok, contentType: "application/atom+xml; charset=utf-8", body: xml)
        response.headers.add("Cache-Control", "public, max-age=300")
        return response
    }
}
