import HTTP

extension App {
    /// `GET /bookmarks`: the posts the member saved, most recently saved first.
    func bookmarks(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let page = try database.bookmarkedPosts(userID: user.storedID, before: cursor(context))
        return try render("bookmarks", context, title: localizer.text("bookmarks.title", context.language),
                          section: .feed, feedView(page, path: Paths.bookmarks, context))
    }
}
