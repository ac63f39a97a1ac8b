import Formats
import HTTP
import Storage

// Names on pages for the values of the site's enumerations: one case, one key, so a value
// without a text, or a text for no value, does not compile.

extension User.Role {
    /// A member's site role, as pages name it.
    var textKey: TextKey {
        switch self {
        case .moderator: .roles.moderator
        case .admin: .roles.admin
        case .member: .roles.member
        }
    }
}

extension OutboxMail.Kind {
    /// What a queued mail is, on the staff's member page.
    var textKey: TextKey {
        switch self {
        case .reset: .admin.mail_kind.reset
        case .verify: .admin.mail_kind.verify
        case .emailChanged: .admin.mail_kind.emailChanged
        case .digest: .admin.mail_kind.digest
        case .notice: .admin.mail_kind.notice
        case .export: .admin.mail_kind.export
        }
    }
}

extension OutboxMail.Status {
    /// Where a queued mail stands.
    var textKey: TextKey {
        switch self {
        case .queued: .admin.mail_status.queued
        case .sent: .admin.mail_status.sent
        case .failed: .admin.mail_status.failed
        }
    }
}

extension ModerationTarget {
    /// What was reported or acted on.
    var textKey: TextKey {
        switch self {
        case .post: .moderation.target.post
        case .comment: .moderation.target.comment
        case .crew: .moderation.target.crew
        case .meetup: .moderation.target.meetup
        case .user: .moderation.target.user
        case .message: .moderation.target.message
        }
    }
}

extension ReportReason {
    /// Why it was reported.
    var textKey: TextKey {
        switch self {
        case .spam: .moderation.reason.spam
        case .harassment: .moderation.reason.harassment
        case .inappropriate: .moderation.reason.inappropriate
        case .offTopic: .moderation.reason.offTopic
        case .other: .moderation.reason.other
        }
    }
}

extension LedgerEntry.Kind {
    /// A line of the crew's books.
    var textKey: TextKey {
        switch self {
        case .dues: .crews.ledger.kind.dues
        case .waiver: .crews.ledger.kind.waiver
        case .income: .crews.ledger.kind.income
        case .expense: .crews.ledger.kind.expense
        case .fee: .crews.ledger.kind.fee
        case .refund: .crews.ledger.kind.refund
        case .failure: .crews.ledger.kind.failure
        }
    }
}

extension CrewRole {
    /// A member's place in a crew.
    var textKey: TextKey {
        switch self {
        case .owner: .crews.role.owner
        case .staff: .crews.role.staff
        case .member: .crews.role.member
        case .pending: .crews.role.pending
        }
    }
}

extension DuesStatus {
    /// Whether this period's dues are paid.
    var textKey: TextKey {
        switch self {
        case .paid: .crews.dues.paid
        case .waived: .crews.dues.waived
        case .unpaid: .crews.dues.unpaid
        }
    }
}

extension Crew.Sport {
    /// The crew's sport.
    var textKey: TextKey {
        switch self {
        case .running: .crews.sport.running
        case .trail: .crews.sport.trail
        case .cycling: .crews.sport.cycling
        case .basketball: .crews.sport.basketball
        case .hiking: .crews.sport.hiking
        case .other: .crews.sport.other
        }
    }
}

extension Crew.JoinPolicy {
    /// How the crew takes members.
    var textKey: TextKey {
        switch self {
        case .open: .crews.policy.open
        case .approval: .crews.policy.approval
        case .invite: .crews.policy.invite
        }
    }
}

extension Crew.JoinPolicy {
    /// What paying the join fee leads to, under this policy.
    var paymentNextKey: TextKey {
        switch self {
        case .open: .payments.next.open
        case .invite: .payments.next.invite
        case .approval: .payments.next.approval
        }
    }
}

extension Meetup.SignupMode {
    /// How places are given.
    var textKey: TextKey {
        switch self {
        case .lottery: .meetups.mode.lottery
        case .firstCome: .meetups.mode.firstCome
        case .approval: .meetups.mode.approval
        }
    }
}

extension Ineligibility {
    /// Why someone may not sign up.
    var textKey: TextKey {
        switch self {
        case .gender: .meetups.why.gender
        case .age: .meetups.why.age
        case .job: .meetups.why.job
        case .missingGender: .meetups.why.missingGender
        case .missingBirthYear: .meetups.why.missingBirthYear
        case .missingJob: .meetups.why.missingJob
        case .missingWorkplace: .meetups.why.missingWorkplace
        }
    }
}

extension Payment.State {
    /// A payment's state, as lists show it.
    var textKey: TextKey {
        switch self {
        case .pending: .payments.states.pending
        case .paid: .payments.states.paid
        case .failed: .payments.states.failed
        case .cancelled: .payments.states.cancelled
        case .expired: .payments.states.expired
        case .voided: .payments.states.voided
        case .refunded: .payments.states.refunded
        }
    }
}

extension Feedback.Kind {
    /// Keep doing, or stop.
    var textKey: TextKey {
        switch self {
        case .continue: .retros.kind.continue
        case .stop: .retros.kind.stop
        }
    }
}

extension PushKind {
    /// What a push notification is about, in settings.
    var textKey: TextKey {
        switch self {
        case .decisions: .push.kinds.decisions
        case .moved: .push.kinds.moved
        case .waitlist: .push.kinds.waitlist
        case .confirm: .push.kinds.confirm
        case .talk: .push.kinds.talk
        case .replies: .push.kinds.replies
        case .follows: .push.kinds.follows
        case .requests: .push.kinds.requests
        case .notices: .push.kinds.notices
        case .reminders: .push.kinds.reminders
        }
    }
}

extension Language {
    /// The language's own name.
    var textKey: TextKey {
        switch self {
        case .en: .language.en
        case .ko: .language.ko
        }
    }
}

extension GPXTrack.Problem {
    /// Why a GPX file was refused, beside its field.
    var textKey: TextKey {
        switch self {
        case .tooLarge: .records.errors.gpx_tooLarge
        case .tooManyPoints: .records.errors.gpx_tooManyPoints
        case .notGPX: .records.errors.gpx_notGPX
        case .unsafe: .records.errors.gpx_unsafe
        case .noPoints: .records.errors.gpx_noPoints
        case .outOfOrder: .records.errors.gpx_outOfOrder
        case .future: .records.errors.gpx_future
        case .tooLong: .records.errors.gpx_tooLong
        }
    }
}

extension Meetup.TimeSlot {
    var textKey: TextKey {
        switch self {
        case .beforeWork: .meetups.slot.beforeWork
        case .afterWork: .meetups.slot.afterWork
        case .weekend: .meetups.slot.weekend
        }
    }
}

extension Meetup.Pace {
    var textKey: TextKey {
        switch self {
        case .beginner: .meetups.pace.beginner
        case .average: .meetups.pace.average
        case .fast: .meetups.pace.fast
        case .elite: .meetups.pace.elite
        }
    }
}

extension Meetup.Style {
    var textKey: TextKey {
        switch self {
        case .walk: .meetups.style.walk
        case .jog: .meetups.style.jog
        case .run: .meetups.style.run
        case .interval: .meetups.style.interval
        }
    }
}

extension Meetup.GenderRule {
    /// The rule as the meetup's page states it; nil when anyone may come.
    var ruleKey: TextKey? {
        switch self {
        case .any: nil
        case .female: .meetups.rule.female
        case .male: .meetups.rule.male
        }
    }
}

extension Crew.FeePeriod {
    /// The fee with its period: "₩10,000 a month".
    var feeKey: TextKey {
        switch self {
        case .once: .crews.fee_once
        case .month: .crews.fee_month
        case .year: .crews.fee_year
        }
    }
}

extension MailSettings.Digest {
    var textKey: TextKey {
        switch self {
        case .off: .settings.digest_off
        case .daily: .settings.digest_daily
        case .weekly: .settings.digest_weekly
        }
    }
}

extension WhoMayStart {
    var textKey: TextKey {
        switch self {
        case .anyone: .talk.who.anyone
        case .following: .talk.who.following
        case .crewmates: .talk.who.crewmates
        case .nobody: .talk.who.nobody
        }
    }
}

extension MailSettings.List {
    /// The question before unsubscribing, and the answer after.
    func unsubscribeKey(done: Bool) -> TextKey {
        switch self {
        case .digest: done ? .unsubscribe.digest_done : .unsubscribe.digest_question
        case .notices: done ? .unsubscribe.notices_done : .unsubscribe.notices_question
        case .reminders: done ? .unsubscribe.reminders_done : .unsubscribe.reminders_question
        }
    }

    /// The mail footer's link that turns this list off.
    var unsubscribeLabel: TextKey {
        switch self {
        case .digest: .mail.unsubscribe_digest
        case .notices: .mail.unsubscribe_notices
        case .reminders: .mail.unsubscribe_reminders
        }
    }
}

extension Notification.Kind {
    /// The sentence for one notification, or for several of a kind that group (follows,
    /// comments, applications, requests).
    func sentenceKey(grouped: Bool) -> TextKey {
        switch self {
        case .follow: grouped ? .notifications.follow_group : .notifications.follow
        case .comment: grouped ? .notifications.comment_group : .notifications.comment
        case .meetupApplied: grouped ? .notifications.meetupApplied_group : .notifications.meetupApplied
        case .crewRequest: grouped ? .notifications.crewRequest_group : .notifications.crewRequest
        case .reply: .notifications.reply
        case .mention: .notifications.mention
        case .crewAccepted: .notifications.crewAccepted
        case .crewRejected: .notifications.crewRejected
        case .meetupAccepted: .notifications.meetupAccepted
        case .meetupRejected: .notifications.meetupRejected
        case .meetupPromoted: .notifications.meetupPromoted
        case .meetupChanged: .notifications.meetupChanged
        case .meetupConfirm: .notifications.meetupConfirm
        case .meetupUnconfirmed: .notifications.meetupUnconfirmed
        case .meetupLotteryWon: .notifications.meetupLotteryWon
        case .meetupLotteryLost: .notifications.meetupLotteryLost
        case .crewNotice: .notifications.crewNotice
        case .crewMeetup: .notifications.crewMeetup
        case .meetupCancelled: .notifications.meetupCancelled
        case .meetupTomorrow: .notifications.meetupTomorrow
        case .meetupSoon: .notifications.meetupSoon
        }
    }
}

extension EmailTokenPurpose {
    /// The texts of the mail that carries the link.
    var mailTexts: (subject: TextKey, body: TextKey, action: TextKey, ignore: TextKey) {
        switch self {
        case .reset: (.mail.reset.subject, .mail.reset.body, .mail.reset.action, .mail.reset.ignore)
        case .verify: (.mail.verify.subject, .mail.verify.body, .mail.verify.action, .mail.verify.ignore)
        }
    }
}

extension HTTPStatus {
    /// The error page's heading and message for this status: its own where the catalogs have
    /// them, else those of 500 for a server's error and of 400 for another.
    var errorTexts: (title: TextKey, message: TextKey) {
        switch code {
        case 400: (.errors.code400.title, .errors.code400.message)
        case 403: (.errors.code403.title, .errors.code403.message)
        case 404: (.errors.code404.title, .errors.code404.message)
        case 405: (.errors.code405.title, .errors.code405.message)
        case 408: (.errors.code408.title, .errors.code408.message)
        case 409: (.errors.code409.title, .errors.code409.message)
        case 413: (.errors.code413.title, .errors.code413.message)
        case 415: (.errors.code415.title, .errors.code415.message)
        case 422: (.errors.code422.title, .errors.code422.message)
        case 429: (.errors.code429.title, .errors.code429.message)
        case 503: (.errors.code503.title, .errors.code503.message)
        case 500...: (.errors.code500.title, .errors.code500.message)
        default: (.errors.code400.title, .errors.code400.message)
        }
    }
}

extension RunRecord.Visibility {
    var textKey: TextKey {
        switch self {
        case .public: .records.visibility.public
        case .crew: .records.visibility.crew
        case .private: .records.visibility.private
        }
    }
}

extension Payment {
    /// Where a payment stands on its result page: its state, or partly refunded when some of a
    /// paid amount came back.
    enum Standing {
        case pending, paid, partlyRefunded, failed, cancelled, expired, voided, refunded
    }

    var standing: Standing {
        switch state {
        case .pending: .pending
        case .paid: refundedAmount > 0 ? .partlyRefunded : .paid
        case .failed: .failed
        case .cancelled: .cancelled
        case .expired: .expired
        case .voided: .voided
        case .refunded: .refunded
        }
    }

    /// What a paid payment leads to, by what it paid for and how the crew takes members.
    func paidKey(joinPolicy: Crew.JoinPolicy) -> TextKey {
        switch (purpose, joinPolicy) {
        case (.dues, _): .payments.result.paid_dues
        case (.join, .open): .payments.result.paid_open
        case (.join, .invite): .payments.result.paid_invite
        case (.join, .approval): .payments.result.paid_approval
        }
    }
}

extension Payment.Standing {
    /// The state's name, as lists and the result page show it.
    var stateKey: TextKey {
        switch self {
        case .pending: .payments.states.pending
        case .paid: .payments.states.paid
        case .partlyRefunded: .payments.states.partly_refunded
        case .failed: .payments.states.failed
        case .cancelled: .payments.states.cancelled
        case .expired: .payments.states.expired
        case .voided: .payments.states.voided
        case .refunded: .payments.states.refunded
        }
    }

    /// The result page's headline.
    var headlineKey: TextKey {
        switch self {
        case .pending: .payments.result.pending
        case .paid: .payments.result.paid
        case .partlyRefunded: .payments.result.partly_refunded
        case .failed: .payments.result.failed
        case .cancelled: .payments.result.cancelled
        case .expired: .payments.result.expired
        case .voided: .payments.result.voided
        case .refunded: .payments.result.refunded
        }
    }

    /// The sentence under it for a payment not paid: nil where the provider's own reason is
    /// shown instead (failed, voided) or where what it paid for decides (`Payment.paidKey`).
    var detailKey: TextKey? {
        switch self {
        case .pending: .payments.result.pending_detail
        case .cancelled: .payments.result.cancelled_detail
        case .expired: .payments.result.expired_detail
        case .refunded: .payments.result.refunded_detail
        case .paid, .partlyRefunded, .failed, .voided: nil
        }
    }
}
