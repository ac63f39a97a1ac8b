import CompiledHTML
import Foundation
import HTTP
import Storage

/// The sections of the header navigation, to mark the current one.
enum Section: String {
    case feed, crews, meetups, records, talk
}

/// A page view: its template, compiled at build time, renders it inside the layout.
protocol PageView {
    func render(into writer: inout HTMLWriter, _ layout: LayoutView)
}

/// What the layout shows around every page.
struct LayoutView {
    static let template = "layout"
    let lang: String
    let title: String
    let csrf: String
    /// A flag beside `currentUser`, for templates whose own views have names (`url`) that
    /// the user's view would shadow inside its section.
    let signedIn: Bool
    let path: String
    let searchQuery: String
    let languages: [LanguageChoice]
    let section: SectionMarks
    let currentUser: UserView?
    let unreadCount: String?
    /// Messages waiting in the member's rooms ("3", "99+"), nil for none.
    let unreadMessages: String?
    let warnings: [String]
    var hasWarnings: Bool { !warnings.isEmpty }
    let silenced: String?
    let flash: String?
    /// The operator's business details given, in the footer.
    let business: [BusinessLine]
    var hasBusiness: Bool { !business.isEmpty }
}

/// "사업자등록번호 123-45-67890"
struct BusinessLine {
    let label: String
    let value: String
}

struct LanguageChoice {
    let code: String
    let name: String
    let current: Bool
}

/// The header's sections, one marked as the current.
struct SectionMarks {
    let current: Section?
    var feed: Bool { current == .feed }
    var crews: Bool { current == .crews }
    var meetups: Bool { current == .meetups }
    var records: Bool { current == .records }
    var talk: Bool { current == .talk }
}

/// A member as pages show them.
struct UserView {
    let username: String
    let displayName: String
    let url: String
    let isStaff: Bool
    var initial: String { String(displayName.first ?? "?").uppercased() }
}

extension UserView {
    init(_ user: User) {
        self.init(username: user.username, displayName: user.displayName, url: Paths.profile(user.username), isStaff: user.role != .member)
    }

    init(_ author: Author) {
        self.init(username: author.username, displayName: author.displayName, url: Paths.profile(author.username), isStaff: author.role != .member)
    }
}

extension App {
    /// Renders a page inside the layout with what every page needs (the miniflux `view.New`).
    func page(
        _ view: some PageView, _ context: RequestContext, title: String, section: Section? = nil, status: HTTPStatus = .ok
    ) -> HTTPResponse {
        let layout = layout(context, title: title, section: section)
        let method = context.request.method
        // A page answering 200 carries a weak ETag made from what it shows (`HTMLWriter`); a
        // browser revalidating its copy is answered 304 after a pass that writes nothing.
        let tagged = status == .ok && (method == .get || method == .head)
        if tagged, let condition = context.request.headers["if-none-match"] {
            var probe = HTMLWriter(context.language, writesBytes: false)
            view.render(into: &probe, layout)
            let tag = Self.entityTag(probe)
            if EntityTag.matches(condition, tag) {
                return HTTPResponse(status: .notModified, headers: HTTPHeaders([("ETag", tag)]))
            }
        }
        var writer = HTMLWriter(context.language, capacity: HTMLWriter.pageCapacity)
        view.render(into: &writer, layout)
        var headers = HTTPHeaders([("Content-Type", "text/html; charset=utf-8")])
        if tagged { headers.add("ETag", Self.entityTag(writer)) }
        return HTTPResponse(status: status, headers: headers, body: writer.bytes)
    }

    /// `W/"…"`: the page's fingerprint and the templates' version, in hex.
    static func entityTag(_ writer: HTMLWriter) -> String {
        var fingerprint = writer.fingerprint
        fingerprint.mix(compiledTemplatesVersion)
        return "W/\"" + String(fingerprint.value, radix: 16) + "\""
    }

    /// A count as a badge shows it: "7", "99+".
    static func badge(_ count: Int) -> String { count > 99 ? "99+" : String(count) }

    func layout(_ context: RequestContext, title: String, section: Section?) -> LayoutView {
        let language = context.language
        var unreadCount: String?
        var silenced: String?
        // A moderator's warning stays on every page until the member says they read it.
        let notices = context.notices
        if notices.unreadNotifications > 0 { unreadCount = Self.badge(notices.unreadNotifications) }
        if let user = context.user, user.isSilenced() {
            silenced = localizer.text(.moderation.silenced, language, ["reason": user.sanctionReason])
        }
        var flash: String?
        // The cookie is outside data: only a name of the catalogs' flash texts shows.
        if let name = context.flash, name.allSatisfy({ $0.isLetter || $0 == "_" }), let key = TextKey.flash.named(name) {
            flash = localizer.text(key, language)
        }
        return LayoutView(
            lang: language.rawValue,
            title: title,
            csrf: context.csrfToken,
            signedIn: context.user != nil,
            path: context.request.target,
            searchQuery: context.request.path == Paths.search ? (context.form["q"] ?? "") : "",
            languages: Language.allCases.map { option in
                LanguageChoice(code: option.rawValue, name: localizer.text(option.textKey, option), current: option == language)
            },
            section: SectionMarks(current: section),
            currentUser: context.user.map(UserView.init),
            unreadCount: unreadCount,
            unreadMessages: notices.unreadMessages > 0 ? Self.badge(notices.unreadMessages) : nil,
            warnings: notices.warnings,
            silenced: silenced,
            flash: flash,
            business: businessLines(language)
        )
    }
}

extension App {
    /// The business details given, labelled in `language`.
    func businessLines(_ language: Language) -> [BusinessLine] {
        guard let details = configuration.business else { return [] }
        let lines: [(TextKey, String)] = [
            (.business.name, details.name), (.business.representative, details.representative), (.business.registration, details.registration),
            (.business.mail_order, details.mailOrder), (.business.address, details.address), (.business.contact, details.contact),
        ]
        return lines.filter { !$0.1.isEmpty }.map { BusinessLine(label: localizer.text($0.0, language), value: $0.1) }
    }
}

extension HTMLWriter {
    /// Room for a whole feed page (about 40 KB) from the start: growing from 16 KiB copied it twice.
    static let pageCapacity = 64 * 1024

    init(_ language: Language, capacity: Int = 16 * 1024, writesBytes: Bool = true) {
        self.init(languageIndex: language.templateIndex, capacity: capacity, writesBytes: writesBytes)
    }
}

extension Language {
    /// Position in the catalogs the template compiler inlined (`--languages en,ko`).
    var templateIndex: Int {
        switch self {
        case .en: 0
        case .ko: 1
        }
    }
}
