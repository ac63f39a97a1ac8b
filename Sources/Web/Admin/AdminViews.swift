import Storage

/// The staff pages, one template with a tab each.
struct AdminView: PageView {
    static let template = "admin"
    let tab: AdminTabMarks
    // The dashboard.
    var openReports: Int = 0
    var newUsers: [UserView] = []
    var chart: ChartView?
    var log: [LogEntryView] = []
    /// Nil when the site sends no mail.
    var outbox: OutboxView?
    // Open reports.
    var reports: [ReportGroupView] = []
    var hasReports: Bool { !reports.isEmpty }
    // Finding members.
    var query: String = ""
    var users: [AdminUserRow] = []
    // One member.
    var member: AdminMemberView?
    var summary: MemberSummaryView?
    var canSanction: Bool = false
    var canGrant: Bool = false
    var canRemoveMessages: Bool = false
    var isModerator: Bool = false
    /// Their address and the mail sent to them; nil when the site sends no mail.
    var mail: MemberMailView?
}

/// The outbox at a glance.
struct OutboxView {
    let queued: Int
    let failed: Int
}

/// A member's address and newest mail, for staff answering "I never got the email".
struct MemberMailView {
    let email: String
    let verified: Bool
    let messages: [MailRowView]
    var rows: Bool { !messages.isEmpty }
}

struct MailRowView {
    let date: String
    let kind: String
    let status: String
    let note: String
}

struct AdminTabMarks {
    enum Tab { case dashboard, reports, users, user, log, documents }
    let current: Tab
    var dashboard: Bool { current == .dashboard }
    var reports: Bool { current == .reports }
    var users: Bool { current == .users }
    var user: Bool { current == .user }
    var log: Bool { current == .log }
    var documents: Bool { current == .documents }
}

/// The reports of one post, comment, crew, meetup or member.
/// A line of a reported message's room, the reported one marked.
struct ReportContextLine {
    let author: String
    /// Empty for a deleted message.
    let text: String
    let reported: Bool
}

struct ReportGroupView {
    struct Author {
        let username: String
        let url: String
    }

    let type: String
    let typeLabel: String
    let id: Int64
    let label: String
    let url: String?
    let count: Int
    /// "3 reports"
    let countText: String
    let reasons: [String]
    let notes: [String]
    let date: String
    let author: Author?
    /// A reported message's neighbours in its room.
    let context: [ReportContextLine]
    var hasContext: Bool { !context.isEmpty }
    let hideable: Bool
    let deletable: Bool
    /// Hidden already: staff may restore it rather than hide it again.
    let hidden: Bool
    let lockable: Bool
}

struct AdminUserRow {
    let user: UserView
    let adminURL: String
    let sanction: String?
}

struct AdminMemberView {
    let user: UserView
    let email: String
    let role: String
    let sanction: String?
    let actionURL: String
}

/// What a member has done, for staff deciding on a sanction.
struct MemberSummaryView {
    let made: Int
    let received: Int
    let sessions: Int
    let posts: Int
    let comments: Int
}

/// One row of the moderation log.
struct LogEntryView {
    let date: String
    let moderator: String
    let action: String
    let target: String
    let label: String?
    let reason: String?
}

/// The public moderation log.
struct ModerationLogView: PageView {
    static let template = "moderation"
    let log: [LogEntryView]
}
