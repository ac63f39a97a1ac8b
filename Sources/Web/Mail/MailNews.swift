import Foundation
import Storage

extension App {
    /// The notifications mailed at once to those who want them (`meetupNotices`).
    static let noticeKinds: [Storage.Notification.Kind] = [
        .meetupChanged, .meetupCancelled, .meetupPromoted, .meetupConfirm, .meetupUnconfirmed, .meetupLotteryWon, .meetupLotteryLost,
        .meetupTomorrow, .meetupSoon,
    ]

    /// Queues what is due, then delivers: the sender thread's pass, and the tests'.
    ///
    /// Not inlined (nor are the steps): inlined into the sender's endless loop, their bodies
    /// made the optimizer's loop-invariant code motion run for over twenty minutes.
    @inline(never)
    public func runMail(now: Date = Date()) throws {
        guard let mailSender else { return }
        // One server at a time decides what news is due: two would both queue it.
        try database.asLeader(of: "mail-news") {
            try queueNotices(now: now)
            try queueDigests(now: now)
        }
        try mailSender.deliverDue(now: now)
    }

    /// Delivers mail in a thread of its own until the process ends: at start (mail queued
    /// before a restart goes out now), when something is queued, and every few seconds.
    public func startMailing() {
        guard let mailSender else { return }
        Thread.detachNewThread { [self] in
            while true {
                do {
                    try runMail()
                } catch {
                    FileHandle.standardError.write(Data("mail pass failed: \(error)\n".utf8))
                }
                mailSender.waitForWork()
            }
        }
    }

    /// Meetup notifications since the last pass, mailed to members with a verified address
    /// who asked for them. The cursor moves past every notification considered, in the same
    /// transaction as the mail is queued, so nothing is mailed twice or skipped.
    @inline(never)
    func queueNotices(now: Date) throws {
        let pending = try database.mail.pendingNotices(kinds: Self.noticeKinds)
        guard let through = pending.through else { return }
        var mails: [OutgoingMail] = []
        for (item, user, settings) in pending.items
        where settings.wantsMail(about: item.notification.kind) && settings.isVerified(user.email) && !user.isSuspended() {
            let language = mailLanguage(user)
            let line = describe([item], language)
            let subject = line.sentence.clipped(120)
            let list: MailSettings.List = item.notification.kind.isReminder ? .reminders : .notices
            let view = NoticeMail(
                frame: frame(user, subject: subject, language: language, unsubscribe: (settings.unsubscribeToken, list)),
                greeting: greeting(user, language), sentence: line.sentence, meetupTitle: item.meetupTitle,
                link: siteOrigin + line.url, action: localizer.text(.mail.notice.action, language))
            guard let mail = configuration.mail,
                  let message = composeMail(view, subject: subject, to: user, address: nil, language: language,
                                            unsubscribe: (settings.unsubscribeToken, list), mail: mail)
            else { continue }
            mails.append(OutgoingMail(userID: user.id, kind: .notice, sender: mail.from.address, recipient: user.email,
                                      message: message, expiresAt: now.addingTimeInterval(MailLinks.newsLifetime)))
        }
        try database.mail.enqueueNotices(mails, through: through, now: now)
    }

    /// A digest for each member whose period has passed and who has unread notifications
    /// newer than their last digest.
    @inline(never)
    func queueDigests(now: Date) throws {
        for (user, settings) in try database.mail.membersDueForDigest(now: now) where !user.isSuspended() {
            let language = mailLanguage(user)
            let items = try database.mail.unreadNotifications(userID: user.storedID, since: settings.lastDigestAt)
            let groups = Self.grouped(items)
            // Messages waiting in the member's rooms (muted ones left out) count too.
            let waiting = try database.talk.unreadCount(userID: user.storedID, now: now)
            guard !groups.isEmpty || waiting > 0 else { continue }
            let shown = groups.prefix(10).map { describe($0, language) }
            let count = groups.count
            let subject = count > 0
                ? localizer.count(.mail.digest.subject, count, language, ["site": siteName])
                : localizer.count(.mail.digest.messages_subject, waiting, language, ["site": siteName])
            let view = DigestMail(
                frame: frame(user, subject: subject, language: language, unsubscribe: (settings.unsubscribeToken, .digest)),
                greeting: greeting(user, language), intro: localizer.text(.mail.digest.intro, language),
                lines: shown.map { DigestLine(sentence: $0.sentence, preview: $0.preview, link: siteOrigin + $0.url) },
                more: count > shown.count ? localizer.count(.mail.digest.more, count - shown.count, language) : nil,
                talk: waiting > 0 ? localizer.count(.mail.digest.messages, waiting, language) : nil,
                talkLink: siteOrigin + Paths.talk, talkAction: localizer.text(.mail.digest.open_talk, language),
                link: siteOrigin + Paths.notifications, action: localizer.text(.mail.digest.action, language))
            try enqueueMail(view, subject: subject, to: user, kind: .digest, language: language, lifetime: MailLinks.newsLifetime,
                            unsubscribe: (settings.unsubscribeToken, .digest), now: now)
        }
    }
}
