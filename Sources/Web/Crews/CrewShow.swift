import Formats
import Foundation
import HTTP
import Storage

/// A crew's page: its head card and tab strip, then one tab's content.
struct CrewPageView: PageView {
    static let template = "crew"
    let crew: CrewCardView
    let tab: CrewTabMarks
    let tabs: CrewTabLinks
    let isMember: Bool
    let isPending: Bool
    let isStaff: Bool
    let isOwner: Bool
    let canJoin: Bool
    /// "Join and pay ₩10,000": the payment page, when the crew asks a fee and a provider takes it.
    let payToJoin: String?
    let payURL: String
    let needsCode: Bool
    let asksApproval: Bool
    /// Shown to staff, who pass it on, with the link that carries it.
    let inviteCode: String?
    let inviteLink: String?
    /// The code an invite link brought (`?code=`), filled in for the newcomer.
    let typedCode: String
    /// For visitors: sign in or sign up, and come back here (with the invite's code).
    let loginURL: String
    let signupURL: String
    let report: ReportFormView
    /// The viewer's role in the crew.
    let roleLabel: String?
    /// The crew's rooms, for its members.
    let talk: CrewTalkView?
    /// The pinned notice, for its members.
    let notice: CrewNoticeView?
    // The tab shown; the others stay nil.
    var aboutTab: CrewAboutTab?
    var membersTab: CrewMembersTab?
    var meetupsTab: CrewMeetupsTab?
    var postsTab: CrewPostsTab?
    var ledgerTab: CrewLedgerTab?
    var retrosTab: CrewRetrosTab?
}

/// A crew's own room and its topic rooms, and for staff the form that adds one.
struct CrewTalkView {
    let roomURL: String
    let rooms: [CrewRoomLink]
    var hasRooms: Bool { !rooms.isEmpty }
    let canAddRoom: Bool
    let addURL: String
    /// For staff, when members reported messages in the crew's rooms: "Reported in the rooms (2)".
    let reports: String?
    let reportsURL: String
    /// The crew's notices and new meetups notify the member (not silenced).
    let notifies: Bool
    let notifyURL: String
}

struct CrewRoomLink {
    let name: String
    let url: String
    let archived: Bool
}

struct CrewTabMarks {
    let current: CrewTab
    var about: Bool { current == .about }
    var members: Bool { current == .members }
    var meetups: Bool { current == .meetups }
    var posts: Bool { current == .posts }
    var ledger: Bool { current == .ledger }
    var retros: Bool { current == .retros }
}

struct CrewTabLinks {
    let base: String
    var about: String { base }
    var members: String { base + "/members" }
    var meetups: String { base + "/meetups" }
    var posts: String { base + "/posts" }
    var ledger: String { base + "/ledger" }
    var retros: String { base + "/retros" }
}

struct CrewAboutTab {
    /// What a club page shows first: the next run, and who is in the crew.
    let nextMeetup: MeetupCardHTML?
    let members: [UserView]
    var hasMembers: Bool { !members.isEmpty }
    let memberTotal: String
    let membersURL: String
    let descriptionHTML: String
    let meetingTime: String?
    let meetingPlace: String?
    let comments: [CrewCommentView]
    var hasComments: Bool { !comments.isEmpty }
    /// For members: the event stream that adds new comments as they come.
    let liveURL: String?
    /// This month's distance per opted-in member.
    let leaderboard: [LeaderboardRowView]
    var hasLeaderboard: Bool { !leaderboard.isEmpty }
}

struct CrewCommentView {
    let id: Int64
    let author: UserView
    let bodyHTML: String
    let posted: Moment
    let canDelete: Bool
    let deleteURL: String
}

struct LeaderboardRowView {
    let user: UserView
    let rank: Int
    let distance: String
    let runs: Int
}

struct CrewMeetupsTab {
    let meetups: [MeetupCardHTML]
    var hasMeetups: Bool { !meetups.isEmpty }
    let newMeetupURL: String
    let calendar: CrewCalendarView
}

struct CrewPostsTab {
    let posts: [PostCardView]
    var hasPosts: Bool { !posts.isEmpty }
    let olderURL: String?
    let composeURL: String
}

extension App {
    /// `GET /crews/:slug`: about the crew, and its comment thread.
    func crewShow(_ context: RequestContext) throws -> HTTPResponse {
        let crew = try crew(context)
        let comments = try database.crews.crewComments(crewID: crew.storedID, viewerID: context.user?.id)
        let role = try viewerRole(crew, context)
        var view = try crewPage(crew, tab: .about, role: role, context)
        var upcoming = MeetupFilter()
        upcoming.crewID = try crew.storedID
        let next = try database.meetups.meetups(upcoming, viewerID: context.user?.id, after: nil, limit: 1).meetups.first
        let members = try database.crews.crewMembers(crewID: crew.storedID)
        view.aboutTab = CrewAboutTab(
            nextMeetup: try next.flatMap { try meetupCardsHTML([MeetupStamp($0)], context.language, rows: [$0]).first },
            members: members.prefix(12).map { UserView($0.user) },
            memberTotal: localizer.number(members.count, context.language),
            membersURL: Paths.crew(crew.slug) + "/members",
            descriptionHTML: crew.descriptionHTML,
            meetingTime: crew.meetingTime.nilIfEmpty,
            meetingPlace: crew.meetingPlace.nilIfEmpty,
            comments: comments.map { entry in
                CrewCommentView(
                    id: entry.comment.id ?? 0, author: UserView(entry.author), bodyHTML: entry.comment.bodyHTML,
                    posted: localizer.moment(entry.comment.createdAt, context.language),
                    canDelete: entry.author.id == context.user?.id || role?.isStaff == true,
                    deleteURL: Paths.crew(crew.slug) + "/comments/\(entry.comment.id ?? 0)/delete")
            },
            liveURL: role?.isMember == true ? Paths.events + "?crew=\(try crew.storedID)&after=\(comments.first?.comment.id ?? 0)" : nil,
            leaderboard: try crewLeaderboard(crew, context))
        return renderCrew(view, crew, context)
    }

    /// `GET /crews/:slug/posts`: posts written in the crew.
    func crewPostsShow(_ context: RequestContext) throws -> HTTPResponse {
        let crew = try crew(context)
        let feed = feed(try database.feed.crewPosts(crewID: crew.storedID, before: cursor(context), viewerID: context.user?.id),
                        path: Paths.crew(crew.slug) + "/posts", context)
        var view = try crewPage(crew, tab: .posts, role: try viewerRole(crew, context), context)
        view.postsTab = CrewPostsTab(posts: feed.posts, olderURL: feed.olderURL, composeURL: Paths.newPost + "?crew=" + crew.slug)
        return renderCrew(view, crew, context)
    }

    /// `GET /crews/:slug/meetups`: the crew's upcoming meetups.
    func crewMeetupsShow(_ context: RequestContext) throws -> HTTPResponse {
        let crew = try crew(context)
        var filter = MeetupFilter()
        filter.crewID = try crew.storedID
        let meetups = try database.meetups.meetups(filter, viewerID: context.user?.id, after: nil, limit: 50).meetups
        let role = try viewerRole(crew, context)
        var view = try crewPage(crew, tab: .meetups, role: role, context)
        view.meetupsTab = CrewMeetupsTab(meetups: try meetupCardsHTML(meetups.map(MeetupStamp.init), context.language, rows: meetups),
                                         newMeetupURL: Paths.newMeetup + "?crew=" + crew.slug,
                                         calendar: try crewCalendar(crew, member: role?.isMember == true, context))
        return renderCrew(view, crew, context)
    }

    /// This month's distance per opted-in member, summed in SQL.
    private func crewLeaderboard(_ crew: Crew, _ context: RequestContext) throws -> [LeaderboardRowView] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = localizer.timeZone
        guard let start = calendar.date(from: calendar.dateComponents([.year, .month], from: Date())),
              let end = calendar.date(byAdding: .month, value: 1, to: start) else { return [] }
        let units = context.user?.units ?? "km"
        return try database.records.leaderboard(crewID: crew.storedID, from: start, to: end).enumerated().map { index, row in
            LeaderboardRowView(user: UserView(row.user), rank: index + 1,
                               distance: distanceText(row.meters, units: units, context.language), runs: row.runs)
        }
    }

    /// The crew page around one tab: header, join controls and tab navigation.
    func crewPage(_ crew: Crew, tab: CrewTab, role: CrewRole?, _ context: RequestContext) throws -> CrewPageView {
        // An invite link's code: letters and digits, as codes are made.
        let typedCode = String((context.request.query["code"] ?? "").uppercased().unicodeScalars
            .filter { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }.prefix(6).map(Character.init))
        let back = typedCode.isEmpty ? Paths.crew(crew.slug) : Paths.crewInvite(crew.slug, code: typedCode)
        return CrewPageView(
            crew: crewCard(crew, context.language),
            tab: CrewTabMarks(current: tab),
            tabs: CrewTabLinks(base: Paths.crew(crew.slug)),
            isMember: role?.isMember == true,
            isPending: role == .pending,
            isStaff: role?.isStaff == true,
            isOwner: role == .owner,
            canJoin: context.user != nil && role == nil && !crew.isFull,
            payToJoin: crew.feeAmount > 0 && !paymentProviders.providers(for: crew.feeCurrency).isEmpty
                ? localizer.text(crew.joinPolicy == .approval ? .payments.apply_and_pay : .payments.join_and_pay, context.language,
                                 ["amount": money(crew.feeAmount, crew.feeCurrency, context.language)]) : nil,
            payURL: Paths.crewPay(crew.slug),
            needsCode: crew.joinPolicy == .invite,
            asksApproval: crew.joinPolicy == .approval,
            inviteCode: role?.isStaff == true ? crew.inviteCode : nil,
            inviteLink: role?.isStaff == true ? crew.inviteCode.map { publicURL(context).origin + Paths.crewInvite(crew.slug, code: $0) } : nil,
            typedCode: typedCode,
            loginURL: Paths.login(next: back),
            signupURL: Paths.signup(next: back),
            report: reportForm(.crew, try crew.storedID, context),
            roleLabel: role.map { localizer.text($0.textKey, context.language) },
            talk: role?.isMember == true ? try crewTalk(crew, viewerID: context.user?.storedID ?? 0, isStaff: role?.isStaff == true, context.language) : nil,
            notice: try crewNotice(crew, role: role, viewerID: context.user?.id, context.language))
    }

    private func crewTalk(_ crew: Crew, viewerID: Int64, isStaff: Bool, _ language: Language) throws -> CrewTalkView? {
        guard let room = try database.talk.crewRoom(crewID: crew.storedID) else { return nil }
        let reported = isStaff ? try database.moderation.crewMessageReports(crewID: crew.storedID).count : 0
        return CrewTalkView(
            roomURL: Paths.talkRoom(try room.storedID),
            rooms: try database.talk.topicRooms(crewID: crew.storedID).map {
                CrewRoomLink(name: $0.name ?? "", url: Paths.talkRoom($0.id ?? 0), archived: $0.archivedAt != nil)
            },
            canAddRoom: isStaff, addURL: Paths.crew(crew.slug) + "/rooms",
            reports: reported > 0 ? localizer.text(.talk.reports_link, language, ["count": Self.badge(reported)]) : nil,
            reportsURL: Paths.crew(crew.slug) + "/reports",
            notifies: try database.crews.notifies(crewID: crew.storedID, userID: viewerID),
            notifyURL: Paths.crew(crew.slug) + "/notifications")
    }

    func renderCrew(_ view: CrewPageView, _ crew: Crew, _ context: RequestContext, status: HTTPStatus = .ok) -> HTTPResponse {
        page(view, context, title: crew.name, section: .crews, status: status)
    }
}

/// A crew's month of meetups, on its Meetups tab.
struct CrewCalendarView {
    let month: String
    let previousURL: String
    let nextURL: String
    let weekdays: [String]
    let weeks: [CrewCalendarWeek]
    /// The feed calendar apps subscribe to: the member's own address, which lists the crew's
    /// meetups for members too; for others, the public one.
    let feedURL: String
}

struct CrewCalendarWeek {
    let days: [CrewCalendarDay]
}

struct CrewCalendarDay {
    let day: Int
    var blank: Bool { day == 0 }
    let meetups: [CrewCalendarEntry]
    var hasMeetups: Bool { !meetups.isEmpty }
}

struct CrewCalendarEntry {
    let title: String
    let time: String
    let url: String
    let cancelled: Bool
}

extension App {
    /// The crew's month of meetups (`?month=YYYY-MM`), for its Meetups tab.
    func crewCalendar(_ crew: Crew, member: Bool, _ context: RequestContext) throws -> CrewCalendarView {
        let language = context.language
        let grid = try MonthGrid(context.form["month"], timeZone: localizer.timeZone)
        let meetups = try database.meetups.crewMeetups(crewID: crew.storedID, from: grid.start, to: grid.next, membersToo: member)
        let byDay = Dictionary(grouping: meetups) { grid.day(of: $0.startsAt) }
        let base = Paths.crewMeetups(crew.slug) + "?month="
        let feed: String
        if member, let user = context.user {
            feed = Paths.crewCalendar(crew.slug) + "?key=" + (try database.meetups.calendarToken(userID: user.storedID) { Crypto.randomToken(24) })
        } else {
            feed = Paths.crewCalendar(crew.slug)
        }
        return CrewCalendarView(
            month: localizer.monthYear(grid.start, language),
            previousURL: base + grid.query(grid.previous) + "#calendar", nextURL: base + grid.query(grid.next) + "#calendar",
            weekdays: (0..<7).map { localizer.weekday($0, language) },
            weeks: grid.weeks.map { days in
                CrewCalendarWeek(days: days.map { day in
                    CrewCalendarDay(day: day, meetups: (byDay[day] ?? []).map { meetup in
                        CrewCalendarEntry(title: meetup.title, time: localizer.clock(meetup.startsAt, language), url: Paths.meetup(meetup.id ?? 0),
                                          cancelled: meetup.isCancelled)
                    })
                })
            },
            feedURL: feed)
    }

    /// `GET /crews/:slug/calendar.ics` (`?key=` a member's calendar address): the crew's
    /// meetups from a month back, for calendar apps; those for members only with a member's key.
    func crewCalendarFeed(_ context: RequestContext) throws -> HTTPResponse {
        let crew = try crew(context)
        var member = false
        if let key = context.form["key"] {
            guard key.utf8.count >= 20, let user = try database.meetups.user(calendarToken: key), !user.isSuspended(),
                  try database.crews.crewRole(crewID: crew.storedID, userID: user.storedID)?.isMember == true
            else { throw HTTPError(.notFound) }
            member = true
        }
        let now = Date()
        let meetups = try database.meetups.crewMeetups(crewID: crew.storedID, from: now.addingTimeInterval(-30 * 86_400),
                                                       to: now.addingTimeInterval(365 * 86_400), membersToo: member)
        return calendarResponse(meetups, name: "Moim · \(crew.name)", context)
    }
}
