import CompiledHTML

/// An email's two parts, each compiled from its template: `template` (HTML) and
/// `textTemplate` (plain text), in the recipient's language.
protocol MailView {
    func render(into writer: inout HTMLWriter)
    func renderText(into writer: inout HTMLWriter)
}

/// What every message shows around its content: the site, and for the mail a member chose
/// (digests, notices) the links to their settings and to unsubscribe.
struct MailFrame {
    let lang: String
    let subject: String
    let site: String
    let siteURL: String
    let settings: String
    let unsubscribe: String?
    let unsubscribeLabel: String
}

/// A mail with one link: to set a new password, to prove the address, or, to the old address
/// after a change, to take the account back.
struct LinkMail: MailView {
    static let template = "mail-link"
    static let textTemplate = "mail-link.txt"
    let frame: MailFrame
    let greeting: String
    let body: String
    /// Said before the link (what to do if the change was not theirs).
    var warning: String? = nil
    let link: String
    let action: String
    /// Said after the link (what to do if the mail was not asked for).
    var ignore: String? = nil
}

/// A code to type back on the site: proves the member reads the address it went to.
struct CodeMail: MailView {
    static let template = "mail-code"
    static let textTemplate = "mail-code.txt"
    let frame: MailFrame
    let greeting: String
    let body: String
    let code: String
    /// What to do if the mail was not asked for.
    let ignore: String
}

/// Unread notifications since the last digest.
struct DigestMail: MailView {
    static let template = "mail-digest"
    static let textTemplate = "mail-digest.txt"
    let frame: MailFrame
    let greeting: String
    let intro: String
    let lines: [DigestLine]
    let more: String?
    /// "3 messages wait for you in Talk", and where.
    let talk: String?
    let talkLink: String
    let talkAction: String
    let link: String
    let action: String
}

struct DigestLine {
    let sentence: String
    let preview: String?
    let link: String
}

/// One meetup notification, sent at once.
struct NoticeMail: MailView {
    static let template = "mail-notice"
    static let textTemplate = "mail-notice.txt"
    let frame: MailFrame
    let greeting: String
    let sentence: String
    let meetupTitle: String?
    let link: String
    let action: String
}
