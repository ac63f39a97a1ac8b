import Foundation
import HTTP
import Storage

/// The page a mail's unsubscribe link opens: a question and a button, since mail scanners
/// open links; the button (or a mail provider's one-click POST) turns the list off.
struct UnsubscribeView: PageView {
    static let template = "unsubscribe"
    let done: Bool
    let message: String
    let action: String
    let list: String
}

extension App {
    /// `GET /unsubscribe/:token?list=digest|notices`: asks before turning anything off.
    func unsubscribeShow(_ context: RequestContext) throws -> HTTPResponse {
        let (user, list) = try unsubscribeTarget(context)
        return renderUnsubscribe(user, list: list, done: false, context)
    }

    /// `POST /unsubscribe/:token`: the button, or a mail provider's one-click request
    /// (RFC 8058, body `List-Unsubscribe=One-Click`). The token in the address is the
    /// authority: no session, no CSRF token (the provider has neither).
    func unsubscribeCreate(_ context: RequestContext) throws -> HTTPResponse {
        let (user, list) = try unsubscribeTarget(context)
        guard let token = context.request.parameters["token"], try database.mail.unsubscribe(token: token, from: list) else {
            throw HTTPError(.notFound, message: localizer.text(.unsubscribe.invalid, context.language))
        }
        return renderUnsubscribe(user, list: list, done: true, context)
    }

    private func unsubscribeTarget(_ context: RequestContext) throws -> (User, MailSettings.List) {
        guard let token = context.request.parameters["token"], let (user, _) = try database.mail.mailSettings(unsubscribeToken: token) else {
            throw HTTPError(.notFound, message: localizer.text(.unsubscribe.invalid, context.language))
        }
        // In the address for a one-click POST (whose body is only `List-Unsubscribe=One-Click`).
        let list = context.request.query["list"] ?? context.form["list"] ?? ""
        return (user, MailSettings.List(rawValue: list) ?? .digest)
    }

    private func renderUnsubscribe(_ user: User, list: MailSettings.List, done: Bool, _ context: RequestContext) -> HTTPResponse {
        let language = context.language
        let view = UnsubscribeView(
            done: done, message: localizer.text(list.unsubscribeKey(done: done), language, ["email": user.email]),
            action: Paths.unsubscribe(context.request.parameters["token"] ?? "", list: list), list: list.rawValue)
        var response = page(view, context, title: localizer.text(.unsubscribe.title, language))
        response.headers.set("Referrer-Policy", "no-referrer")
        return response
    }
}
