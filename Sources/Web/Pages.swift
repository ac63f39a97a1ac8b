import Formats
import Foundation
import HTTP
import Storage

extension App {
    typealias Page = @Sendable (RequestContext) throws -> HTTPResponse

    /// Wraps a page handler: builds its context (session, language, CSRF check on POST),
    /// turns thrown errors into error pages and adds the headers every page carries.
    /// `checksCSRF: false` only for a POST whose address holds its own secret (unsubscribe).
    func page(_ handler: @escaping Page, checksCSRF: Bool = true) -> HTTPRouter.Handler {
        { [unowned self] request in
            guard database.hasReplicas else { return respond(to: request, handler, checksCSRF: checksCSRF) }
            return respondWithReplicas(to: request, handler, checksCSRF: checksCSRF)
        }
    }

    private func respond(to request: HTTPRequest, _ handler: Page, checksCSRF: Bool) -> HTTPResponse {
        var context: RequestContext? = nil
        var response: HTTPResponse
        do {
            let built = try makeContext(request, checksCSRF: checksCSRF)
            context = built
            response = try agreementsFirst(built) ?? handler(built)
        } catch {
            response = errorResponse(error, request: request, context: context)
        }
        finish(&response, context: context)
        return response
    }

    /// With read replicas: a GET's reads may go to one that has replayed this browser's last
    /// write (the `moim_wrote` cookie), anything else reads the primary; a request that wrote
    /// tells the browser where the write ended, so that its next pages show it.
    private func respondWithReplicas(to request: HTTPRequest, _ handler: Page, checksCSRF: Bool) -> HTTPResponse {
        let readsOnly = request.method == .get || request.method == .head
        let mustSee = request.cookies[cookies.wrote].flatMap(WALPosition.init(token:))
        var (response, wrote) = database.scoped(replicaAllowed: readsOnly, mustSee: mustSee) {
            respond(to: request, handler, checksCSRF: checksCSRF)
        }
        if let wrote {
            // Long past any lag a replica is used at; a later write's position replaces it.
            let cookie = SetCookie(name: cookies.wrote, value: wrote.token, maxAge: 600, secure: cookies.secure || request.isSecure)
            response.setCookie(cookie)
        }
        return response
    }

    private func makeContext(_ request: HTTPRequest, checksCSRF: Bool) throws -> RequestContext {
        // The Cookie header is parsed once here for everything below.
        let requestCookies = request.cookies
        let current = try currentSession(requestCookies)
        let language = language(for: request, cookies: requestCookies, user: current?.user)
        let csrf = csrfToken(requestCookies, session: current?.session)
        var form = request.query
        var files: [MultipartForm.File] = []
        if request.method == .post {
            if checksCSRF { try checkOrigin(request) }
            (form, files) = try postedForm(request)
            guard !checksCSRF || (!csrf.isNew && form["_csrf"].map { Crypto.constantTimeEqual($0, csrf.token) } == true) else {
                throw HTTPError(.forbidden, message: localizer.text(.errors.csrf, language))
            }
        }
        return RequestContext(
            request: request, language: language, user: current?.user, session: current?.session,
            notices: current?.notices ?? PageNotices(), csrfToken: csrf.token, issuesCSRFCookie: csrf.isNew,
            form: form, files: files, flash: requestCookies[cookies.flash]
        )
    }

    /// The CSRF token for this request's forms: the session's, else the visitor's cookie,
    /// else a new one that the response must set.
    func csrfToken(_ requestCookies: [String: String], session: Session?) -> (token: String, isNew: Bool) {
        if let session { return (session.csrfToken, false) }
        if let cookie = requestCookies[cookies.csrf], cookie.utf8.count == 43 { return (cookie, false) }
        return (Crypto.randomToken(), true)
    }

    private func postedForm(_ request: HTTPRequest) throws -> (URLEncodedForm, [MultipartForm.File]) {
        let type = request.headers["content-type"] ?? ""
        if type.lowercased().hasPrefix("application/x-www-form-urlencoded") {
            return (try URLEncodedForm(parsing: request.body), [])
        }
        if let boundary = MultipartForm.boundary(contentType: type) {
            let form = try MultipartForm(parsing: request.body, boundary: boundary)
            return (form.fields, form.files)
        }
        // Any other body carries no CSRF token: the check that follows answers 403, so that
        // a forged request learns nothing from a 415 about what it reached.
        return (URLEncodedForm(), [])
    }

    /// Browsers send `Origin` on every POST; one from another site is a forgery even when
    /// it somehow carries a token.
    private func checkOrigin(_ request: HTTPRequest) throws {
        guard let origin = request.headers["origin"] else { return }
        let host = request.headers["host"] ?? ""
        let originHost = origin.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first.map(String.init)
        guard origin != "null", originHost?.lowercased() == host.lowercased() else {
            throw HTTPError(.forbidden, message: "Cross-site form submission refused.")
        }
    }

    /// The user's setting, else the language cookie, else `Accept-Language`, else English.
    func language(for request: HTTPRequest, cookies requestCookies: [String: String], user: User?) -> Language {
        user?.language.flatMap(Language.init(rawValue:))
            ?? requestCookies[cookies.language].flatMap(Language.init(rawValue:))
            ?? Language.preferred(by: request.headers["accept-language"])
            ?? .en
    }

    /// Headers every page carries, and the cookies its context asked for.
    func finish(_ response: inout HTTPResponse, context: RequestContext?) {
        let headers = [
            ("Content-Security-Policy", Self.pageSecurityPolicy()),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "same-origin"),
            ("X-Frame-Options", "DENY"),
        ]
        for (name, value) in headers where response.headers[name] == nil {
            response.headers.add(name, value)
        }
        if response.headers["cache-control"] == nil {
            // A member's page is never kept: on a shared phone, Back after signing out shows
            // nothing of them. A visitor's is kept, asked again each time (its ETag).
            response.headers.add("Cache-Control", context?.user != nil ? "private, no-store" : "private, no-cache")
        }
        guard let context else { return }
        if context.issuesCSRFCookie {
            response.setCookie(SetCookie(name: cookies.csrf, value: context.csrfToken, secure: cookies.secure))
        }
        if context.flash != nil, response.status != .seeOther {
            response.setCookie(.expired(cookies.flash, secure: cookies.secure))
        }
        // Behind a trusted proxy that took the request over HTTPS, cookies are Secure too
        // (their names keep no `__Host-` prefix unless --secure-cookies says so).
        if context.request.isSecure, !cookies.secure {
            let setCookies = response.headers.values("Set-Cookie")
            response.headers.remove("Set-Cookie")
            for value in setCookies { response.headers.add("Set-Cookie", value.hasSuffix("; Secure") || value.contains("; Secure;") ? value : value + "; Secure") }
        }
    }

    /// A redirect that shows `flash`, one of the catalogs' `flash.` texts (`\.post_saved`), on
    /// the next page.
    func redirect(to location: String, flash: KeyPath<TextKeyTree.flash, TextKey>? = nil) -> HTTPResponse {
        var response = HTTPResponse.redirect(to: location)
        if let flash {
            // The cookie holds the text's name within `flash.`; the layout reads it back.
            let name = TextKeyTree.flash()[keyPath: flash].name.dropFirst("flash.".count)
            response.setCookie(SetCookie(name: cookies.flash, value: String(name), maxAge: 60, secure: cookies.secure))
        }
        return response
    }
}
