import Formats
import Foundation
import HTTP
import Storage

/// The site's page for an error status.
struct ErrorView: PageView {
    static let template = "error"
    let code: Int
    let heading: String
    let message: String
    /// Shown for server errors, to quote when reporting them.
    let requestID: String?
}

extension App {
    /// Turns anything a handler threw into a page that looks like the site, in the right
    /// language, with the right status. 5xx errors are logged with the request id.
    func errorResponse(_ error: any Error, request: HTTPRequest, context: RequestContext?) -> HTTPResponse {
        if let redirect = error as? Redirect {
            return .redirect(to: redirect.location)
        }
        // A request refused before it had a context still gets the page in its language.
        let pageContext = context ?? fallbackContext(request)
        let httpError = (error as? HTTPError)
            ?? (error as? StorageError).map { refusal($0, pageContext.language) }
            ?? HTTPError(.internalServerError)
        // One rule for "you need an account": a visitor opening a page they may not see is
        // sent to sign in and brought back; a member who may not see it gets 403.
        if httpError.status == .forbidden, request.method == .get, let context, context.user == nil {
            return .redirect(to: Paths.login(next: request.target))
        }
        if httpError.status.code >= 500 {
            let line = "[\(request.id)] \(request.method.rawValue) \(request.target) failed: \(String(reflecting: error))\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
        let language = pageContext.language
        let code = httpError.status.code
        let texts = httpError.status.errorTexts
        let view = ErrorView(
            code: code,
            heading: localizer.text(texts.title, language),
            message: httpError.message ?? waitMessage(httpError, language) ?? localizer.text(texts.message, language),
            requestID: code >= 500 ? request.id : nil)
        var response = page(view, pageContext, title: view.heading, status: httpError.status)
        for (name, value) in httpError.headers { response.headers.set(name, value) }
        response.headers.set("Cache-Control", "no-store")
        if context == nil, pageContext.issuesCSRFCookie {
            response.setCookie(SetCookie(name: cookies.csrf, value: pageContext.csrfToken, secure: cookies.secure))
        }
        return response
    }

    /// A context for errors raised before the real one could be built (or outside any page):
    /// no form, and a user only if the session can still be read.
    private func fallbackContext(_ request: HTTPRequest) -> RequestContext {
        let requestCookies = request.cookies
        let current = try? currentSession(requestCookies)
        let csrf = csrfToken(requestCookies, session: current?.session)
        return RequestContext(
            request: request, language: language(for: request, cookies: requestCookies, user: current?.user), user: current?.user,
            session: current?.session, notices: current?.notices ?? PageNotices(), csrfToken: csrf.token, issuesCSRFCookie: csrf.isNew,
            form: URLEncodedForm(), files: [], flash: nil
        )
    }
}

extension App {
    /// "Try again in 14 minutes", when a 429 says how long (`Retry-After`).
    fileprivate func waitMessage(_ error: HTTPError, _ language: Language) -> String? {
        guard error.status == .tooManyRequests,
              let seconds = error.headers["Retry-After"].flatMap({ Checked.integer($0, in: 0...86_400 * 365) })
        else { return nil }
        return localizer.text(.errors.code429.retry, language, ["wait": localizer.duration(seconds, language)])
    }
}
