import HTTP
import Storage

enum ProfileTab: String {
    case posts, followers, following
}

/// A member's page: their head card, then their posts or the people they follow or who
/// follow them.
struct ProfileView: PageView {
    static let template = "profile"
    let profile: ProfileHeadView
    let isSelf: Bool
    let canFollow: Bool
    let following: Bool
    let blocked: Bool
    let tab: ProfileTabMarks
    let report: ReportFormView
    /// The posts tab.
    var posts: [PostCardView] = []
    var hasPosts: Bool { !posts.isEmpty }
    /// The followers and following tabs.
    var people: [UserView] = []
    var hasPeople: Bool { !people.isEmpty }
    var olderURL: String?
}

struct ProfileHeadView {
    let username: String
    let displayName: String
    var initial: String { String(displayName.first ?? "?").uppercased() }
    let url: String
    let role: String?
    let region: String?
    let joined: String
    /// "Works at example.co.kr", while the member's workplace verification holds.
    let workplace: String?
    let bio: String?
    let crews: [ProfileCrewView]
    var hasCrews: Bool { !crews.isEmpty }
    /// How often they came when they said they would (RunnerBe's reliability label).
    let attendance: String?
    let postCount: String
    let followerCount: String
    let followingCount: String
    /// "post" or "posts", "follower" or "followers": the words after the counts.
    let postsLabel: String
    let followersLabel: String
    let followersURL: String
    let followingURL: String
    let atomURL: String
}

/// A crew the member belongs to, with their role in it.
struct ProfileCrewView {
    let url: String
    let name: String
    let role: String
}

struct ProfileTabMarks {
    let current: ProfileTab
    var posts: Bool { current == .posts }
    var followers: Bool { current == .followers }
    var following: Bool { current == .following }
}

extension App {
    /// `GET /u/:username`: the profile and its posts.
    func profileShow(_ context: RequestContext) throws -> HTTPResponse {
        let member = try memberProfile(context)
        let user = member.user
        let page = try database.feed.userPosts(userID: user.storedID, before: cursor(context), viewerID: context.user?.id)
        let feed = feed(page, path: Paths.profile(user.username), context)
        var view = try profile(member, tab: .posts, context)
        view.posts = feed.posts
        view.olderURL = feed.olderURL
        return self.page(view, context, title: Self.profileTitle(user))
    }

    /// `GET /u/:username/followers` and `/following`.
    func profileFollows(_ tab: ProfileTab) -> Page {
        { [unowned self] context in
            let member = try memberProfile(context)
            let user = member.user
            let cursor = try cursor(context)
            let (people, next) = try database.profiles.follows(of: user.storedID, followers: tab == .followers, after: cursor)
            let path = tab == .followers ? Paths.followers(user.username) : Paths.following(user.username)
            var view = try profile(member, tab: tab, context)
            view.people = people.map(UserView.init)
            view.olderURL = Paths.older(path, before: next)
            return page(view, context, title: Self.profileTitle(user))
        }
    }

    /// The member named by `:username`, or 404.
    func profileUser(_ context: RequestContext) throws -> User {
        guard let name = context.request.parameters["username"], let user = try database.accounts.user(username: name) else {
            throw HTTPError(.notFound)
        }
        // What deleted members left behind is bylined to one account that is nobody's page.
        guard user.deletedAt == nil else { throw HTTPError(.gone) }
        return user
    }

    /// The member named by `:username` with their counts, or 404.
    private func memberProfile(_ context: RequestContext) throws -> MemberProfile {
        guard let name = context.request.parameters["username"],
              let member = try database.profiles.memberProfile(username: name, viewerID: context.user?.id)
        else { throw HTTPError(.notFound) }
        guard member.user.deletedAt == nil else { throw HTTPError(.gone) }
        return member
    }

    private static func profileTitle(_ user: User) -> String {
        "\(user.displayName) (@\(user.username))"
    }

    private func profile(_ member: MemberProfile, tab: ProfileTab, _ context: RequestContext) throws -> ProfileView {
        let language = context.language
        let user = member.user, counts = member.counts
        let userID = try user.storedID
        let head = ProfileHeadView(
            username: user.username,
            displayName: user.displayName,
            url: Paths.profile(user.username),
            role: user.role == .member ? nil : localizer.text(user.role.textKey, language),
            region: user.region.map { localizer.text(TextKey.choices.region.named($0), language, otherwise: $0) },
            joined: localizer.text(.profile.joined, language, ["date": localizer.monthYear(user.createdAt, language)]),
            workplace: user.verifiedWorkplace().map { localizer.text(.workplace.profile, language, ["domain": $0]) },
            bio: user.bio.nilIfEmpty,
            crews: try database.crews.crews(ofUser: userID).map { entry in
                ProfileCrewView(url: Paths.crew(entry.crew.slug), name: entry.crew.name,
                                role: localizer.text(entry.role.textKey, language))
            },
            attendance: member.attendanceRecorded > 0
                ? localizer.text(.profile.attendance, language, ["attended": String(member.attended), "recorded": String(member.attendanceRecorded)])
                : nil,
            postCount: localizer.number(counts.posts, language),
            followerCount: localizer.number(counts.followers, language),
            followingCount: localizer.number(counts.following, language),
            postsLabel: localizer.text(localizer.counted(.profile.post_stat, counts.posts, language), language),
            followersLabel: localizer.text(localizer.counted(.profile.follower_stat, counts.followers, language), language),
            followersURL: Paths.followers(user.username),
            followingURL: Paths.following(user.username),
            atomURL: Paths.userFeed(user.username)
        )
        let isSelf = context.user?.id == userID
        return ProfileView(
            profile: head,
            isSelf: isSelf,
            canFollow: context.user != nil && !isSelf,
            following: member.viewerFollows,
            blocked: member.viewerBlocked,
            tab: ProfileTabMarks(current: tab),
            report: reportForm(.user, userID, context)
        )
    }

    /// `POST /u/:username/follow` and `/unfollow`.
    func profileFollow(_ follow: Bool) -> Page {
        { [unowned self] context in
            let me = try context.requireUser()
            let user = try profileUser(context)
            if follow {
                try storageAction(context) { try database.profiles.follow(followerID: me.storedID, followeeID: user.storedID) }
            } else {
                try database.profiles.unfollow(followerID: me.storedID, followeeID: user.storedID)
            }
            return .redirect(to: Paths.local(context.form["return_to"] ?? Paths.profile(user.username)))
        }
    }
}
