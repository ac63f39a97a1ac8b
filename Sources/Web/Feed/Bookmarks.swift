import HTTP
import Storage

/// What the member saved: meetups, then posts.
struct BookmarksView: PageView {
    static let template = "bookmarks"
    let meetups: [MeetupCardHTML]
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
            meetups: try bookmarkedMeetupCards(user, context.language),
            posts: feed.posts, olderURL: feed.olderURL)
        return page(view, context, title: localizer.text(.bookmarks.title, context.language), section: .feed)
    }
}

extension App {
    fileprivate func bookmarkedMeetupCards(_ user: User, _ language: Language) throws -> [MeetupCardHTML] {
        let meetups = try database.meetups.bookmarkedMeetups(userID: user.storedID)
        return try meetupCardsHTML(meetups.map(MeetupStamp.init), language, rows: meetups)
    }
}
