import HTTP
import Storage

extension App {
    /// `GET /`: the member's feed (people they follow, and their own posts); for visitors,
    /// a welcome above everyone's latest posts.
    func home(_ context: RequestContext) throws -> HTTPResponse {
        guard let user = context.user else { return try explore(context) }
        let language = context.language
        let page = try database.homeFeed(userID: user.storedID, before: cursor(context))
        var view = feedView(page, path: context.request.path, context)
        view["welcome"] = localizer.text("home.welcome", language, ["name": user.displayName])
        return try render("home", context, title: localizer.text("home.title", language), section: .feed, view)
    }

    /// `GET /explore`: everyone's posts, newest first.
    func explore(_ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        let page = try database.publicFeed(before: cursor(context), viewerID: context.user?.id)
        var view = feedView(page, path: context.request.path, context)
        view["memberCount"] = localizer.number(try database.userCount(), language)
        view["exploring"] = true
        return try render("home", context, title: localizer.text("feed.explore_title", language), section: .feed, view)
    }
}
