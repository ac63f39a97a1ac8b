import HTTP

/// What the member saved: meetups, then posts.
struct BookmarksView: PageView {
    static let template = "bookmarks"
    let meetups: [MeetupCardView]
    var hasMeetups: Bool { !meetups.isEmpty }
    let posts: [PostCardView]
    var hasPosts: Bool { !posts.isEmpty }
    let olderURL: String?
}

extension App {
    /// `GET /bookmarks`: the meetups and posts the member saved, most recently saved first.
    func bookmarks(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let feed = feed(try database.feed.bookmarkedPosts(userID: user.storedID, before: cursor(context)), path: Paths.bookmarks, context)
        let view = BookmarksView(
            meetups: try database.meetups.bookmarkedMeetups(userID: user.storedID).map { meetupCard($0, context.language) },
            posts: feed.posts, olderURL: feed.olderURL)
        return page(view, context, title: localizer.text(.bookmarks.title, context.language), section: .feed)
    }
}
