import HTTP

extension App {
    /// `GET /bookmarks`: the meetups and posts the member saved, most recently saved first.
    func bookmarks(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let page = try database.bookmarkedPosts(userID: user.storedID, before: cursor(context))
        var view = feedView(page, path: Paths.bookmarks, context)
        let meetups = try database.bookmarkedMeetups(userID: user.storedID)
        view["meetups"] = meetups.map { meetupView($0, context.language) }
        view["hasMeetups"] = !meetups.isEmpty
        return try render("bookmarks", context, title: localizer.text("bookmarks.title", context.language), section: .feed, view)
    }
}
