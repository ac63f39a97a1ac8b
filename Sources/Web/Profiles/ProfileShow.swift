import HTTP
import Storage

enum ProfileTab: String {
    case posts, followers, following
}

extension App {
    /// `GET /u/:username`: the profile and its posts.
    func profileShow(_ context: RequestContext) throws -> HTTPResponse {
        let user = try profileUser(context)
        let page = try database.userPosts(userID: user.storedID, before: cursor(context), viewerID: context.user?.id)
        return try renderProfile(user, tab: .posts, feedView(page, path: Paths.profile(user.username), context), context)
    }

    /// `GET /u/:username/followers` and `/following`.
    func profileFollows(_ tab: ProfileTab) -> Page {
        { [unowned self] context in
            let user = try profileUser(context)
            let cursor = try cursor(context)
            let (people, next) = try database.follows(of: user.storedID, followers: tab == .followers, after: cursor)
            let path = tab == .followers ? Paths.followers(user.username) : Paths.following(user.username)
            return try renderProfile(user, tab: tab, [
                "people": people.map(userView),
                "hasPeople": !people.isEmpty,
                "olderURL": Paths.older(path, before: next) as Any,
            ], context)
        }
    }

    /// The member named by `:username`, or 404.
    func profileUser(_ context: RequestContext) throws -> User {
        guard let name = context.request.parameters["username"], let user = try database.user(username: name) else {
            throw HTTPError(.notFound)
        }
        return user
    }

    private func renderProfile(_ user: User, tab: ProfileTab, _ data: [String: Any], _ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        let userID = try user.storedID
        let counts = try database.followCounts(userID: userID)
        var profile = userView(user)
        // Sections treat an empty string as true, so absent values are left out.
        profile["bio"] = user.bio.nilIfEmpty
        profile["region"] = user.region.map { localizer.text("choices.region.\($0)", language) }
        profile["joined"] = localizer.text("profile.joined", language, ["date": localizer.monthYear(user.createdAt, language)])
        profile["role"] = user.role == .member ? nil : localizer.text("roles.\(user.role.rawValue)", language)
        profile["postCount"] = localizer.number(counts.posts, language)
        profile["followerCount"] = localizer.number(counts.followers, language)
        profile["followingCount"] = localizer.number(counts.following, language)
        profile["followersURL"] = Paths.followers(user.username)
        profile["followingURL"] = Paths.following(user.username)
        profile["atomURL"] = Paths.userFeed(user.username)
        let crews = try database.crews(ofUser: userID)
        profile["crews"] = crews.map { entry -> [String: Any] in
            var view = crewView(entry.crew, language)
            view["role"] = localizer.text("crews.role.\(entry.role.rawValue)", language)
            return view
        }
        profile["hasCrews"] = !crews.isEmpty
        let attendance = try database.attendance(userID: userID)
        if attendance.recorded > 0 {
            // RunnerBe's reliability label: how often they came when they said they would.
            profile["attendance"] = localizer.text("profile.attendance", language,
                                                   ["attended": String(attendance.attended), "recorded": String(attendance.recorded)])
        }
        let isSelf = context.user?.id == userID
        var view: [String: Any] = [
            "profile": profile,
            "isSelf": isSelf,
            "canFollow": context.user != nil && !isSelf,
            "following": try context.user.map { try database.isFollowing(followerID: $0.storedID, followeeID: userID) } ?? false,
            "tab": [tab.rawValue: true],
            "report": reportView(.user, userID, context),
            "blocked": try context.user.map { try database.hasBlocked(blockerID: $0.storedID, blockedID: userID) } ?? false,
        ]
        view.merge(data) { _, new in new }
        return try render("profile", context, title: "\(user.displayName) (@\(user.username))", view)
    }

    /// `POST /u/:username/follow` and `/unfollow`.
    func profileFollow(_ follow: Bool) -> Page {
        { [unowned self] context in
            let me = try context.requireUser()
            let user = try profileUser(context)
            if follow {
                try storageAction(context) { try database.follow(followerID: me.storedID, followeeID: user.storedID) }
            } else {
                try database.unfollow(followerID: me.storedID, followeeID: user.storedID)
            }
            return .redirect(to: Paths.local(context.form["return_to"] ?? Paths.profile(user.username)))
        }
    }
}
