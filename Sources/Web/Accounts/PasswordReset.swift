import Foundation
import HTTP
import Storage

/// Asking for a reset link.
struct PasswordForgotView: PageView {
    static let template = "password-forgot"
    /// False when the site has no mail server: the page says to ask an admin.
    let canSend: Bool
    let sent: Bool
    let login: String
    let error: String?
}

/// Choosing a new password from a link.
struct PasswordResetView: PageView {
    static let template = "password-reset"
    let action: String
    let username: String
    let intro: String
    let errors: [String: String]
    var hasErrors: Bool { !errors.isEmpty }
}

extension App {
    /// `GET /password/forgot`
    func passwordForgotShow(_ context: RequestContext) throws -> HTTPResponse {
        renderForgot(login: "", sent: false, error: nil, context)
    }

    /// `POST /password/forgot`: mails a link if the account exists. The answer is the same
    /// either way, so the form does not tell who has an account here. Limited per network
    /// (5 an hour: the answer says so) and per account (3 links an hour: silently).
    func passwordForgotCreate(_ context: RequestContext) throws -> HTTPResponse {
        let login = (context.form["login"] ?? "").trimmed
        guard mailEnabled else { return renderForgot(login: login, sent: false, error: nil, context) }
        guard !login.isEmpty else {
            return renderForgot(login: login, sent: false, error: localizer.text(.errors.login_missing, context.language), status: .unprocessableContent, context)
        }
        let address = AddressKey.of(context.request.remoteAddress)
        if let wait = resetLimit.retryAfter(address) {
            let error = localizer.text(.password.too_many, context.language, ["wait": localizer.duration(wait, context.language)])
            var response = renderForgot(login: login, sent: false, error: error, status: .tooManyRequests, context)
            response.headers.set("Retry-After", String(wait))
            return response
        }
        resetLimit.record(address)
        if login.utf8.count <= 254, let user = try database.accounts.user(login: login), !user.isSuspended(),
           try database.accounts.emailTokenCount(userID: user.storedID, purpose: .reset, since: Date().addingTimeInterval(-3_600)) < 3 {
            try sendResetLink(user)
        }
        return renderForgot(login: "", sent: true, error: nil, context)
    }

    private func renderForgot(login: String, sent: Bool, error: String?, status: HTTPStatus = .ok, _ context: RequestContext) -> HTTPResponse {
        page(PasswordForgotView(canSend: mailEnabled, sent: sent, login: login, error: error), context,
             title: localizer.text(.password.forgot_title, context.language), status: status)
    }

    /// `GET /password/reset/:token`
    func passwordResetShow(_ context: RequestContext) throws -> HTTPResponse {
        let (user, token) = try resetLinkUser(context)
        return renderReset(user, token: token, errors: FieldErrors(), context)
    }

    /// `POST /password/reset/:token`: sets the password, ends every session of the account,
    /// and signs this browser in afresh.
    func passwordResetUpdate(_ context: RequestContext) throws -> HTTPResponse {
        let (user, token) = try resetLinkUser(context)
        let new = context.form["new_password"] ?? ""
        var errors = FieldErrors()
        PasswordRules.check(new, confirmation: context.form["new_password_confirmation"] ?? "", field: "new_password", into: &errors)
        guard errors.isEmpty else { return renderReset(user, token: token, errors: errors, context) }
        guard let hash = Self.emailTokenHash(token) else { throw HTTPError(.notFound) }
        switch try database.accounts.resetPassword(tokenHash: hash, passwordHash: try passwords.hash(new)) {
        case .success(let user):
            loginThrottle.recordSuccess(account: "user:\(try user.storedID)")
            var response = redirect(to: user.isSuspended() ? Paths.login : Paths.home, flash: \.password_reset)
            if !user.isSuspended() { try signIn(user, in: context, on: &response) }
            return response
        case .failure(let error):
            // Used by a second tab between the form and now.
            throw linkError(error, context.language)
        }
    }

    private func resetLinkUser(_ context: RequestContext) throws -> (User, String) {
        let token = context.request.parameters["token"] ?? ""
        guard let hash = Self.emailTokenHash(token) else { throw linkError(.invalid, context.language) }
        switch try database.accounts.resetTokenUser(tokenHash: hash) {
        case .success(let user): return (user, token)
        case .failure(let error): throw linkError(error, context.language)
        }
    }

    /// A link that cannot be used: 404 when it is not (or no longer) one, 410 when it expired.
    func linkError(_ error: EmailTokenError, _ language: Language) -> HTTPError {
        switch error {
        case .expired: HTTPError(.gone, message: localizer.text(.password.link_expired, language))
        case .invalid, .addressChanged: HTTPError(.notFound, message: localizer.text(.password.link_invalid, language))
        }
    }

    private func renderReset(_ user: User, token: String, errors: FieldErrors, _ context: RequestContext) -> HTTPResponse {
        let language = context.language
        let view = PasswordResetView(
            action: Paths.passwordReset(token), username: user.username,
            intro: localizer.text(.password.reset_intro, language, ["username": user.username]),
            errors: errors.localized(localizer, language))
        var response = page(view, context, title: localizer.text(.password.reset_title, language), status: errors.isEmpty ? .ok : .unprocessableContent)
        // The address holds the token: never cached, never sent on as a referrer.
        response.headers.set("Cache-Control", "no-store")
        response.headers.set("Referrer-Policy", "no-referrer")
        return response
    }
}

extension App {
    /// Prints a one-time reset link for `username` (`moim admin reset-link`), for a site
    /// without mail or a member who lost access to their mailbox.
    public static func resetLink(database: AppDatabase, username: String, origin: String) throws -> String? {
        guard let user = try database.accounts.user(username: username) else { return nil }
        return origin + Paths.passwordReset(try makeEmailToken(database, user, purpose: .reset, email: user.email))
    }
}
