import Foundation
import HTTP
import Storage

/// The sections of the header navigation, to mark the current one.
enum Section: String {
    case feed, crews, meetups, records
}

extension App {
    /// Renders `template` inside the layout with what every page needs (the miniflux `view.New`).
    func render(
        _ template: String, _ context: RequestContext, title: String, section: Section? = nil,
        status: HTTPStatus = .ok, _ data: [String: Any] = [:]
    ) throws -> HTTPResponse {
        var view = layoutView(context, title: title, section: section)
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

    func layoutView(_ context: RequestContext, title: String, section: Section?) -> [String: Any] {
        let language = context.language
        var view: [String: Any] = [
            "lang": language.rawValue,
            "title": title,
            "csrf": context.csrfToken,
            // A flag, not the `currentUser` section, wherever the inner template also uses
            // keys such as `url` that the user's view would shadow.
            "signedIn": context.user != nil,
            "path": context.request.target,
            "searchQuery": context.request.path == Paths.search ? (context.form["q"] ?? "") : "",
            "languages": Language.allCases.map { option in
                ["code": option.rawValue, "name": localizer.text("language.\(option.rawValue)", option),
                 "current": option == language] as [String: Any]
            },
        ]
        if let section { view["section"] = [section.rawValue: true] }
        if let user = context.user {
            view["currentUser"] = userView(user)
            let unread = (try? database.unreadNotificationCount(userID: user.storedID)) ?? 0
            if unread > 0 { view["unreadCount"] = unread > 99 ? "99+" : String(unread) }
            // A moderator's warning stays on every page until the member says they read it.
            let warnings = (try? database.unreadWarnings(userID: user.storedID)) ?? []
            if !warnings.isEmpty {
                view["warnings"] = warnings.map(\.reason)
                view["hasWarnings"] = true
            }
            if user.isSilenced() { view["silenced"] = localizer.text("moderation.silenced", language, ["reason": user.sanctionReason]) }
        }
        if let flash = context.flash, flash.allSatisfy({ $0.isLetter || $0 == "_" }),
           case let text = localizer.text("flash.\(flash)", language), text != "flash.\(flash)" {
            view["flash"] = text
        }
        return view
    }

    func userView(_ user: User) -> [String: Any] {
        [
            "username": user.username,
            "displayName": user.displayName,
            "initial": String(user.displayName.first ?? "?").uppercased(),
            "url": Paths.profile(user.username),
            "isStaff": user.role != .member,
        ]
    }
}

/// Lets `droppingNil` see through an Optional stored in `Any`.
private protocol OptionalValue {
    var wrapped: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrapped: Any? { map { $0 } }
}
