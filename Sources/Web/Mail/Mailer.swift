import CompiledHTML
import Formats
import Foundation
import Mail
import Storage

/// How the site sends mail: `--smtp-url`, `--mail-from`. Without it (nil in
/// `WebConfiguration.mail`) the site works as before and says so where mail would be needed.
public struct MailConfiguration: Sendable {
    public var server: SMTPServer
    public var from: MailAddress
    /// PEM certificates to trust beside the system's (a private relay's CA).
    public var trustedCertificates: String?
    /// The first wait after a failed attempt; it doubles up to `longestRetry`.
    public var firstRetry: TimeInterval = 60
    public var longestRetry: TimeInterval = 3_600
    /// A message the server has not taken after this long is given up (and logged).
    public var giveUpAfter: TimeInterval = 3 * 86_400
    /// How often the sender looks for due mail when nothing wakes it.
    public var pollInterval: TimeInterval = 5

    public init(server: SMTPServer, from: MailAddress) {
        self.server = server
        self.from = from
    }
}

/// Lifetimes of the links mail carries.
enum MailLinks {
    static let resetLifetime: TimeInterval = 3_600
    static let verifyLifetime: TimeInterval = 7 * 86_400
    /// Digests and notices are stale after this; account mail after its link expires.
    static let newsLifetime: TimeInterval = 2 * 86_400
}

extension App {
    var mailEnabled: Bool { mailSender != nil }

    /// The language a member reads mail in: their setting, else English.
    func mailLanguage(_ user: User) -> Language {
        user.language.flatMap(Language.init(rawValue:)) ?? .en
    }

    /// The site's address for mail, which has no request to take a `Host` from.
    var siteOrigin: String { configuration.baseURL?.origin ?? "http://localhost" }
    var siteName: String { configuration.baseURL?.host ?? "Moim" }

    func frame(_ user: User, subject: String, language: Language, unsubscribe: (token: String, list: MailSettings.List)? = nil) -> MailFrame {
        MailFrame(
            lang: language.rawValue, subject: subject, site: siteName, siteURL: siteOrigin + "/",
            settings: siteOrigin + Paths.settings,
            unsubscribe: unsubscribe.map { siteOrigin + Paths.unsubscribe($0.token, list: $0.list) },
            unsubscribeLabel: localizer.text(unsubscribe?.list.unsubscribeLabel ?? .mail.unsubscribe_digest, language))
    }

    /// Renders the message and puts it in the outbox. A header that could carry an injection
    /// (a line break in a name or subject) is refused and logged: false, nothing queued.
    @discardableResult
    func enqueueMail(
        _ view: some MailView, subject: String, to user: User, address: String? = nil, kind: OutboxMail.Kind,
        language: Language, lifetime: TimeInterval, unsubscribe: (token: String, list: MailSettings.List)? = nil,
        now: Date = Date()
    ) throws -> Bool {
        guard let outgoing = outgoingMail(view, subject: subject, to: user, address: address, kind: kind, language: language,
                                          lifetime: lifetime, unsubscribe: unsubscribe, now: now)
        else { return false }
        if kind == .digest {
            try database.mail.enqueueDigest(outgoing, userID: user.storedID, now: now)
        } else {
            try database.mail.enqueueMail(outgoing, now: now)
        }
        mailSender?.wake()
        return true
    }

    /// The message as the outbox takes it, or nil (no mail server; a header refused).
    func outgoingMail(
        _ view: some MailView, subject: String, to user: User, address: String? = nil, kind: OutboxMail.Kind,
        language: Language, lifetime: TimeInterval, unsubscribe: (token: String, list: MailSettings.List)? = nil, now: Date = Date()
    ) -> OutgoingMail? {
        guard let mail = configuration.mail,
              let message = composeMail(view, subject: subject, to: user, address: address, language: language, unsubscribe: unsubscribe, mail: mail)
        else { return nil }
        return OutgoingMail(userID: user.id, kind: kind, sender: mail.from.address, recipient: address ?? user.email,
                            message: message, expiresAt: now.addingTimeInterval(lifetime))
    }

    func composeMail(_ view: some MailView, subject: String, to user: User, address: String?, language: Language,
                     unsubscribe: (token: String, list: MailSettings.List)?, mail: MailConfiguration) -> [UInt8]? {
        var html = HTMLWriter(language)
        view.render(into: &html)
        var text = HTMLWriter(language)
        view.renderText(into: &text)
        var headers: [(name: String, value: String)] = [("Auto-Submitted", "auto-generated")]
        if let unsubscribe {
            // RFC 8058: a mail provider's "unsubscribe" button posts to this address, no sign-in.
            headers.append(("List-Unsubscribe", "<\(siteOrigin + Paths.unsubscribe(unsubscribe.token, list: unsubscribe.list))>"))
            headers.append(("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"))
        }
        let message = MailMessage(
            from: mail.from, to: MailAddress(name: user.displayName, address: address ?? user.email), subject: subject,
            text: String(decoding: text.bytes, as: UTF8.self), html: String(decoding: html.bytes, as: UTF8.self),
            headers: headers, domain: configuration.baseURL?.host ?? "localhost")
        do {
            return try message.rendered()
        } catch {
            FileHandle.standardError.write(Data("mail to user \(user.id ?? 0) (\(subject.debugDescription)) not queued: \(error)\n".utf8))
            return nil
        }
    }

    /// A new single-use token of `purpose` for the member: its hash is stored, the token
    /// itself only goes into the link.
    static func makeEmailToken(_ database: AppDatabase, _ user: User, purpose: EmailTokenPurpose, email: String) throws -> String {
        let token = newEmailToken()
        try database.accounts.createEmailToken(
            userID: user.storedID, purpose: purpose, email: email, tokenHash: token.hash,
            validFor: purpose == .reset ? MailLinks.resetLifetime : MailLinks.verifyLifetime)
        return token.link
    }

    /// A new token: as a link carries it, and the hash that is stored.
    static func newEmailToken() -> (link: String, hash: Data) {
        let token = Crypto.randomBytes(32)
        return (Crypto.base64URL(token), Crypto.sha256(token))
    }

    /// The stored hash of a token from a link, or nil when it cannot be one of ours.
    static func emailTokenHash(_ text: String?) -> Data? {
        guard let text, text.utf8.count == 43, let bytes = Crypto.decodeBase64URL(text), bytes.count == 32 else { return nil }
        return Crypto.sha256(bytes)
    }

    func greeting(_ user: User, _ language: Language) -> String {
        localizer.text(.mail.greeting, language, ["name": user.displayName])
    }

    /// Mails a password-reset link to the member's address.
    func sendResetLink(_ user: User) throws {
        try sendLink(user, purpose: .reset, path: Paths.passwordReset, lifetime: MailLinks.resetLifetime)
    }

    /// Mails a link that proves the member's current address.
    func sendVerificationLink(_ user: User) throws {
        try sendLink(user, purpose: .verify, path: Paths.verifyEmail, lifetime: MailLinks.verifyLifetime)
    }

    /// A new token of `purpose` in a link to `path(token)`.
    private func sendLink(_ user: User, purpose: EmailTokenPurpose, path: (String) -> String, lifetime: TimeInterval) throws {
        let token = try Self.makeEmailToken(database, user, purpose: purpose, email: user.email)
        let (view, subject, language) = linkMail(user, purpose: purpose, link: siteOrigin + path(token))
        try enqueueMail(view, subject: subject, to: user, kind: purpose == .reset ? .reset : .verify, language: language, lifetime: lifetime)
    }

    /// A link mail of `purpose`, in the member's language: the texts are the catalog's
    /// `mail.reset.*` or `mail.verify.*`.
    private func linkMail(_ user: User, purpose: EmailTokenPurpose, link: String) -> (view: LinkMail, subject: String, language: Language) {
        let language = mailLanguage(user)
        let texts = purpose.mailTexts
        let subject = localizer.text(texts.subject, language, ["site": siteName])
        let view = LinkMail(
            frame: frame(user, subject: subject, language: language), greeting: greeting(user, language),
            body: localizer.text(texts.body, language, ["username": user.username]),
            link: link, action: localizer.text(texts.action, language),
            ignore: localizer.text(texts.ignore, language))
        return (view, subject, language)
    }

    /// The two mails a new address brings, not queued yet: a link that proves it (the hash of
    /// its new token is returned, to be stored in the same transaction), and a word to the old
    /// address, should the change not be the owner's. No mails without a mail server.
    func addressChangeMails(_ user: User, oldAddress: String) -> (mails: [OutgoingMail], tokenHash: Data) {
        let token = Self.newEmailToken()
        let (view, subject, language) = linkMail(user, purpose: .verify, link: siteOrigin + Paths.verifyEmail(token.link))
        let proof = outgoingMail(view, subject: subject, to: user, kind: .verify, language: language, lifetime: MailLinks.verifyLifetime)
        let noticeSubject = localizer.text(.mail.email_changed.subject, language, ["site": siteName])
        let notice = LinkMail(
            frame: frame(user, subject: noticeSubject, language: language), greeting: greeting(user, language),
            body: localizer.text(.mail.email_changed.body, language, ["username": user.username, "email": user.email]),
            warning: localizer.text(.mail.email_changed.not_you, language),
            link: siteOrigin + Paths.forgotPassword, action: localizer.text(.mail.email_changed.action, language))
        let warning = outgoingMail(notice, subject: noticeSubject, to: user, address: oldAddress, kind: .emailChanged, language: language,
                                   lifetime: MailLinks.newsLifetime)
        return ([proof, warning].compactMap { $0 }, token.hash)
    }
}
