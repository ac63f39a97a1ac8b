import HTTP
import Storage

/// The feed page: a member's home, or everyone's posts (explore).
struct HomeView: PageView {
    static let template = "home"
    let exploring: Bool
    let feed: FeedView
    var posts: [PostCardView] { feed.posts }
    var hasPosts: Bool { feed.hasPosts }
    var olderURL: String? { feed.olderURL }
    /// Explore shows visitors how many have joined: the number, and the words after it.
    var memberCount: String?
    var membersSoFar: String?
    /// Home greets the member in the side card.
    var welcome: String?
}

extension App {
    /// `GET /`: the member's feed (people they follow, and their own posts); for visitors,
    /// a welcome above everyone's latest posts.
    func home(_ context: RequestContext) throws -> HTTPResponse {
        guard let user = context.user else { return try explore(context) }
        let language = context.language
        let page = try database.feed.homeFeed(userID: user.storedID, before: cursor(context))
        var view = HomeView(exploring: false, feed: feed(page, path: context.request.path, context))
        view.welcome = localizer.text(.home.welcome, language, ["name": user.displayName])
        return self.page(view, context, title: localizer.text(.home.title, language), section: .feed)
    }

    /// `GET /explore`: everyone's posts, newest first.
    func explore(_ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        let page = try database.feed.publicFeed(before: cursor(context), viewerID: context.user?.id)
        var view = HomeView(exploring: true, feed: feed(page, path: context.request.path, context))
        let members = try memberCount.value { try database.accounts.userCount() }
        view.memberCount = localizer.number(members, language)
        view.membersSoFar = localizer.text(localizer.counted(.home.members, members, language), language)
        return self.page(view, context, title: localizer.text(.feed.explore_title, language), section: .feed)
    }
}
