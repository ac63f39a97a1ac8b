import Formats
import Foundation
import HTTP
import Storage

extension App {
    /// `GET /meetups/:id`: the details, who is going, and one clear next step for the viewer.
    func meetupShow(_ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        let now = Date()
        // What fell due since the server's last sweep happens before anyone sees the page.
        try settleMeetups(now: now)
        let meetup = try meetup(context)
        let meetupID = try meetup.storedID
        guard let host = try database.accounts.user(id: meetup.hostID) else { throw HTTPError(.notFound) }
        let viewer = context.user
        let isHost = viewer?.id == meetup.hostID
        let application = try viewer.flatMap { try database.meetups.application(meetupID: meetupID, userID: $0.storedID) }
        let participants = try database.meetups.participants(meetupID: meetupID)
        let canTalk = try viewer.map { try database.meetups.canTalk(meetupID: meetupID, userID: $0.storedID) } ?? false
        let waitlist = try database.meetups.waitlistLength(meetupID: meetupID)
        // Read before the talk, so the stream starts no later than what the page shows.
        let lastTalk = try database.live.lastTalkID(meetupID: meetupID)
        var detail = MeetupDetailView(
            card: meetupCard(meetup, language),
            descriptionHTML: meetup.descriptionHTML.nilIfEmpty,
            host: UserView(host),
            span: localizer.meetupSpan(meetup.startsAt, meetup.endsAt, language),
            daylight: localizer.daylight(Daylight.warning(start: meetup.startsAt, end: meetup.endsAt,
                                                          latitude: meetup.latitude, longitude: meetup.longitude), language),
            deadline: localizer.dateTime(meetup.deadline, language),
            address: meetup.address.nilIfEmpty,
            placeNote: meetup.placeNote.nilIfEmpty,
            mapURL: meetup.latitude.flatMap { lat in meetup.longitude.map { "geo:\(lat),\($0)" } },
            afterParty: meetup.afterParty,
            mode: localizer.text(meetup.signupMode.textKey, language),
            waitlist: waitlist > 0 ? waitlist : nil,
            icsURL: Paths.meetup(meetupID) + ".ics")
        detail.map = meetupMap(meetup, view: context.form["map"], language)

        // One call to action for the viewer.
        var action = MeetupActionView()
        if meetup.isCancelled {
            action.cancelled = meetup.cancelReason
        } else if viewer == nil {
            action.loginURL = Paths.login(next: Paths.meetup(meetupID))
        } else if isHost {
            action.host = true
        } else if let application, application.status != .cancelled {
            action.status = application.status
            action.place = application.waitlistPlace
            action.confirmBy = application.confirmBy.map { localizer.dateTime($0, language) }
            action.inDraw = application.status == .pending && meetup.signupMode == .lottery
        } else if meetup.isClosed(at: now) {
            action.closed = true
        } else if let viewer, case let reasons = meetup.ineligibility(of: viewer, at: now), !reasons.isEmpty {
            action.ineligible = reasons.map { localizer.text($0.textKey, language) }
            action.needsProfile = reasons.contains(where: \.needsProfile)
        } else {
            action.apply = true
            action.willWait = meetup.signupMode == .firstCome && meetup.acceptedCount >= meetup.capacity
            action.entersDraw = meetup.signupMode == .lottery
        }
        let groups = try database.meetups.paceGroups(meetupID: meetupID)
        let groupViews = try groups.map { group in
            PaceGroupView(
                id: group.id ?? 0, label: group.label,
                leader: try group.leaderID.flatMap { try database.accounts.user(id: $0) }.map(UserView.init),
                left: group.acceptedCount >= group.capacity ? localizer.text(.meetups.groups.full, language)
                    : localizer.count(.meetups.groups.left, group.capacity - group.acceptedCount, language),
                going: participants.filter { $0.groupID == group.id && $0.status == .accepted }.map { UserView($0.user) })
        }
        // Check-in: the host shows the code and its QR code; people going type it.
        var checkin: CheckinView?
        if meetup.isCheckInOpen(at: now), !meetup.isCancelled {
            let mine = participants.first { $0.user.id == viewer?.id }
            if isHost {
                let code = try database.meetups.checkinCode(meetupID: meetupID, make: Self.newCheckinCode)
                let link = publicURL(context).origin + Paths.meetup(meetupID) + "?code=" + code + "#checkin"
                checkin = CheckinView(hostCode: code, qr: QRCode(link).map { QRView(path: $0.svgPath, size: $0.size + 8) })
            } else if let mine, mine.status == .accepted {
                checkin = CheckinView(checkedIn: mine.attended == true, typed: context.form["code"].map { String($0.prefix(6)) } ?? "")
            }
        }
        let view = MeetupPageView(
            meetup: detail,
            action: action,
            isHost: isHost,
            checkin: checkin,
            groups: groupViews,
            retroURL: now >= meetup.endsAt && (isHost || participants.contains { $0.user.id == viewer?.id && $0.attended == true })
                ? Paths.meetupRetro(meetupID) : nil,
            started: now >= meetup.startsAt,
            recordURL: !meetup.isCancelled && (isHost || participants.contains { $0.user.id == viewer?.id && $0.status == .accepted })
                ? recordURL(meetupID: meetupID, startsAt: meetup.startsAt, now: now) : nil,
            canClose: isHost && meetup.closedAt == nil && !meetup.isClosed(at: now),
            callOffURL: isHost && !meetup.isCancelled && now < meetup.startsAt ? Paths.meetup(meetupID) + "/call-off" : nil,
            going: participants.filter { $0.status == .accepted }.map { participantView($0, meetupID: meetupID) },
            pending: isHost && meetup.signupMode == .approval
                ? try applicantViews(participants.filter { $0.status == .pending }, meetupID: meetupID, language, now: now) : [],
            lottery: meetup.signupMode == .lottery ? LotteryView(
                commitment: meetup.lotteryCommitment ?? "", drawAt: localizer.dateTime(meetup.deadline, language),
                entrants: participants.count { $0.status == .pending },
                seed: meetup.drawnAt == nil ? nil : meetup.lotterySeed,
                order: (meetup.drawnAt == nil ? nil : meetup.lotteryResult)?.split(separator: ",").enumerated().map { index, name in
                    LotteryEntryView(rank: index + 1, username: String(name), won: index < meetup.capacity)
                } ?? []) : nil,
            canTalk: canTalk,
            talk: canTalk ? try database.meetups.talk(meetupID: meetupID, viewerID: viewer?.storedID ?? 0).map { entry in
                TalkEntryView(author: UserView(entry.author), bodyHTML: entry.bodyHTML, posted: localizer.moment(entry.createdAt, language))
            } : [],
            talkCount: try database.meetups.talkCount(meetupID: meetupID),
            report: reportForm(.meetup, meetupID, context),
            liveURL: viewer == nil ? nil : Paths.events + "?meetup=\(meetupID)&after=\(lastTalk)",
            liveVersion: MeetupLiveState.version(meetup, application: application, viewerID: viewer?.id ?? 0, now: now),
            bookmarked: try viewer.map { try database.meetups.isMeetupBookmarked(meetupID: meetupID, userID: $0.storedID) } ?? false)
        return page(view, context, title: meetup.title, section: .meetups)
    }

    /// Applicants, each with their record of the last six months: "Went 5 · No-show 1".
    private func applicantViews(_ applicants: [Participant], meetupID: Int64, _ language: Language, now: Date) throws -> [ParticipantView] {
        let records = try database.meetups.attendanceRecords(userIDs: applicants.compactMap(\.user.id), since: now.addingTimeInterval(-183 * 86_400), now: now)
        return applicants.map { applicant in
            var view = participantView(applicant, meetupID: meetupID)
            let record = records[applicant.user.id ?? 0] ?? (0, 0)
            view.record = record.went + record.noShows == 0 ? localizer.text(.meetups.record.none, language)
                : localizer.text(.meetups.record.line, language, ["went": localizer.number(record.went, language),
                                                                    "no_shows": localizer.number(record.noShows, language)])
            return view
        }
    }

    private func participantView(_ participant: Participant, meetupID: Int64) -> ParticipantView {
        ParticipantView(
            user: UserView(participant.user), userID: participant.user.id ?? 0, present: participant.attended == true,
            actionBase: Paths.meetup(meetupID) + "/applications/" + PercentEncoding.encode(participant.user.username))
    }
}

/// A meetup's page: the details, who is going, one clear next step for the viewer, the talk.
extension App {
    /// The recorder, its run to belong to the meetup, on the meetup's day (the site's time zone).
    func recordURL(meetupID: Int64, startsAt: Date, now: Date) -> String? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = localizer.timeZone
        return calendar.isDate(now, inSameDayAs: startsAt) ? Paths.recordNew + "?meetup=\(meetupID)#recorder" : nil
    }
}

struct MeetupPageView: PageView {
    static let template = "meetup"
    let meetup: MeetupDetailView
    let action: MeetupActionView
    let isHost: Bool
    /// From half an hour before the start to an hour after.
    let checkin: CheckinView?
    /// Pace groups, each with its places left; applying picks one.
    let groups: [PaceGroupView]
    var hasGroups: Bool { !groups.isEmpty }
    /// After the meetup, for its host and those who attended.
    let retroURL: String?
    let started: Bool
    /// On the meetup's day, for its host and those going: record the run in the browser.
    let recordURL: String?
    let canClose: Bool
    /// For the host, until it starts: call it off (or delete it, when nobody joined).
    let callOffURL: String?
    let going: [ParticipantView]
    var hasGoing: Bool { !going.isEmpty }
    /// Applications waiting for the host.
    let pending: [ParticipantView]
    var hasPending: Bool { !pending.isEmpty }
    /// The draw, for a lottery meetup.
    let lottery: LotteryView?
    let canTalk: Bool
    let talk: [TalkEntryView]
    let talkCount: Int
    let report: ReportFormView
    /// The event stream that keeps the page current (signed in), and the version of the page
    /// it compares the meetup's state with.
    let liveURL: String?
    let liveVersion: String
    let bookmarked: Bool
}

/// The meetup's card, with what its own page adds.
struct MeetupDetailView {
    let card: MeetupCardView
    var isoDate: String { card.isoDate }
    var when: String { card.when }
    var title: String { card.title }
    var url: String { card.url }
    var kind: [String] { card.kind }
    var distance: String? { card.distance }
    var crewOnly: Bool { card.crewOnly }
    var place: String { card.place }
    var going: String { card.going }
    var rules: [String] { card.rules }
    var hasRules: Bool { !card.rules.isEmpty }
    let descriptionHTML: String?
    let host: UserView
    /// "Sat, Nov 28 · 6:00 – 7:30 AM (UTC+9)"
    let span: String
    /// "It starts before sunrise (7:43 AM): bring a light."
    let daylight: String?
    let deadline: String
    let address: String?
    let placeNote: String?
    let mapURL: String?
    let afterParty: Bool
    let mode: String
    /// How many wait for a place.
    let waitlist: Int?
    let icsURL: String
    /// The meeting point on a map, when the site has map tiles and the meetup a point.
    var map: MapPicture?
}

/// The one next step the viewer is offered.
struct MeetupActionView {
    /// Called off by the host: their reason (maybe empty), instead of any step.
    var cancelled: String? = nil
    /// For visitors: sign in, and come back here.
    var loginURL: String? = nil
    var host: Bool = false
    var apply: Bool = false
    /// Applying now joins the waitlist; `entersDraw`: the lottery.
    var willWait: Bool = false
    var entersDraw: Bool = false
    var status: ApplicationStatus?
    var accepted: Bool { status == .accepted }
    /// Waiting for the host; `inDraw`: waiting for the lottery.
    var pending: Bool { status == .pending && !inDraw }
    var inDraw: Bool = false
    var waitlisted: Bool { status == .waitlisted }
    var rejected: Bool { status == .rejected }
    /// Their place on the waitlist.
    var place: Int?
    /// The host moved the meetup: keep the place by then ("Nov 28, 2026 at 6:00 AM").
    var confirmBy: String?
    var closed: Bool = false
    /// Why they cannot apply, in words.
    var ineligible: [String] = []
    var needsProfile: Bool = false
}

struct ParticipantView {
    let user: UserView
    let userID: Int64
    let present: Bool
    let actionBase: String
    /// For an applicant the host decides on: what hosts recorded of them lately.
    var record: String? = nil
}

struct TalkEntryView {
    let author: UserView
    let bodyHTML: String
    let posted: Moment
}

/// A lottery: the commitment from the start; the seed and the order once drawn.
struct LotteryView {
    let commitment: String
    let drawAt: String
    let entrants: Int
    let seed: String?
    let order: [LotteryEntryView]
    var hasOrder: Bool { !order.isEmpty }
}

struct LotteryEntryView {
    let rank: Int
    let username: String
    let won: Bool
}

/// Self check-in: the host's code and QR code, or a participant's form.
struct CheckinView {
    var hostCode: String? = nil
    var qr: QRView? = nil
    var checkedIn: Bool = false
    /// Prefilled from the QR code's link (`?code=`).
    var typed: String = ""
    var showsForm: Bool { hostCode == nil && !checkedIn }
}

struct QRView {
    let path: String
    /// Modules across, quiet zone included.
    let size: Int
}

struct PaceGroupView {
    let id: Int64
    let label: String
    let leader: UserView?
    /// "3 places left", or "Full: waitlist".
    let left: String
    let going: [UserView]
}
