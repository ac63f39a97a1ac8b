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
        return .html(try templates.render(template, context.language, view), status: status)
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
