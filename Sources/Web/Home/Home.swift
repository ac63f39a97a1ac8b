import HTTP

extension App {
    /// `GET /`: a welcome for visitors; for members, where to go next.
    func home(_ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        let memberCount = try database.userCount()
        return try render("home", context, title: localizer.text("home.title", language), section: .feed, [
            "memberCount": localizer.number(memberCount, language),
            "welcome": localizer.text("home.welcome", language, ["name": context.user?.displayName ?? ""]),
        ])
    }
}
