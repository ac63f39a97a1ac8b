import Foundation
import HTTP
import Storage

/// The sections of the header navigation, to mark the current one.
enum Section: String {
    case feed, crews, meetups, records
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
    let warnings: [String]
    var hasWarnings: Bool { !warnings.isEmpty }
    let silenced: String?
    let flash: String?
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
}

extension App {
    /// Renders a page inside the layout with what every page needs (the miniflux `view.New`).
    func page(
        _ view: some PageView, _ context: RequestContext, title: String, section: Section? = nil, status: HTTPStatus = .ok
    ) -> HTTPResponse {
        var writer = HTMLWriter(context.language)
        view.render(into: &writer, layout(context, title: title, section: section))
        return HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", "text/html; charset=utf-8")]), body: writer.bytes)
    }

    /// Renders `template` inside the layout, interpreted by swift-mustache: the pages not
    /// compiled yet.
    func render(
        _ template: String, _ context: RequestContext, title: String, section: Section? = nil,
        status: HTTPStatus = .ok, _ data: [String: Any] = [:]
    ) throws -> HTTPResponse {
        var view = layout(context, title: title, section: section).dictionary
        view.merge(data) { _, new in new }
        return .html(try templates.render(template, context.language, Self.droppingNils(view)), status: status)
    }

    /// The view without its nil values. swift-mustache treats a nil Optional stored in `Any`
    /// as present (a section renders, an inverted one does not); a missing key is absent.
    static func droppingNils(_ view: [String: Any]) -> [String: Any] {
        view.compactMapValues(droppingNil)
    }

    private static func droppingNil(_ value: Any) -> Any? {
        switch value {
        case let dictionary as [String: Any]: droppingNils(dictionary)
        case let list as [[String: Any]]: list.map(droppingNils)
        case let optional as OptionalValue: optional.wrapped.flatMap(droppingNil)
        default: value
        }
    }

    func layout(_ context: RequestContext, title: String, section: Section?) -> LayoutView {
        let language = context.language
        var unreadCount: String?
        var warnings: [String] = []
        var silenced: String?
        if let user = context.user {
            // A moderator's warning stays on every page until the member says they read it.
            let notices = (try? database.pageNotices(userID: user.storedID)) ?? (unreadNotifications: 0, warnings: [])
            if notices.unreadNotifications > 0 { unreadCount = notices.unreadNotifications > 99 ? "99+" : String(notices.unreadNotifications) }
            warnings = notices.warnings
            if user.isSilenced() { silenced = localizer.text("moderation.silenced", language, ["reason": user.sanctionReason]) }
        }
        var flash: String?
        if let key = context.flash, key.allSatisfy({ $0.isLetter || $0 == "_" }),
           case let text = localizer.text("flash.\(key)", language), text != "flash.\(key)" {
            flash = text
        }
        return LayoutView(
            lang: language.rawValue,
            title: title,
            csrf: context.csrfToken,
            signedIn: context.user != nil,
            path: context.request.target,
            searchQuery: context.request.path == Paths.search ? (context.form["q"] ?? "") : "",
            languages: Language.allCases.map { option in
                LanguageChoice(code: option.rawValue, name: localizer.text("language.\(option.rawValue)", option), current: option == language)
            },
            section: SectionMarks(current: section),
            currentUser: context.user.map(UserView.init),
            unreadCount: unreadCount,
            warnings: warnings,
            silenced: silenced,
            flash: flash
        )
    }

    func userView(_ user: User) -> [String: Any] {
        UserView(user).dictionary
    }
}

extension LayoutView {
    /// For the interpreted templates.
    var dictionary: [String: Any] {
        [
            "lang": lang, "title": title, "csrf": csrf, "signedIn": signedIn, "path": path, "searchQuery": searchQuery,
            "languages": languages.map { ["code": $0.code, "name": $0.name, "current": $0.current] as [String: Any] },
            "section": section.current.map { [$0.rawValue: true] } as Any,
            "currentUser": currentUser?.dictionary as Any,
            "unreadCount": unreadCount as Any,
            "warnings": warnings, "hasWarnings": hasWarnings,
            "silenced": silenced as Any, "flash": flash as Any,
        ]
    }
}

extension UserView {
    /// For the interpreted templates.
    var dictionary: [String: Any] {
        ["username": username, "displayName": displayName, "initial": initial, "url": url, "isStaff": isStaff]
    }
}

/// Lets `droppingNil` see through an Optional stored in `Any`.
private protocol OptionalValue {
    var wrapped: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrapped: Any? { map { $0 } }
}
