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
    /// `GET /email/verify/:token`: the address the link was sent to is proved the member's.
    func emailVerify(_ context: RequestContext) throws -> HTTPResponse {
        guard let hash = Self.emailTokenHash(context.request.parameters["token"]) else { throw linkError(.invalid, context.language) }
        switch try database.verifyEmail(tokenHash: hash) {
        case .success:
            return redirect(to: context.user == nil ? Paths.login : Paths.settings, flash: "email_verified")
        case .failure(let error):
            throw linkError(error, context.language)
        }
    }

    /// `POST /settings/email/verify`: the link again, at most 3 an hour (counted in the
    /// database, so a restart does not reset it).
    func emailVerificationResend(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard mailEnabled else { throw HTTPError(.notFound) }
        if try database.emailTokenCount(userID: user.storedID, purpose: .verify, since: Date().addingTimeInterval(-3_600)) >= 3 {
            throw HTTPError(.tooManyRequests, message: localizer.text("errors.verify_limit", context.language))
        }
        try sendVerificationLink(user)
        return redirect(to: Paths.settings, flash: "verification_sent")
    }

    /// `POST /settings/email`: a new address, with the current password. The new address gets
    /// a link to prove it; the old one is told, in case it was not the owner.
    func settingsEmailUpdate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let email = (context.form["email"] ?? "").trimmed.lowercased()
        var errors = FieldErrors()
        if !SignupForm.isValidEmail(email) {
            errors.add("email", "errors.email_format")
        } else if email == user.email.lowercased() {
            errors.add("email", "errors.email_same")
        }
        if !(try passwords.verify(context.form["email_password"] ?? "", against: user.passwordHash)) {
            errors.add("email_password", "errors.current_password")
        }
        guard errors.isEmpty else { return try renderSettings(ProfileFields(user), user: user, errors: errors, newEmail: email, context) }
        // Each change mails two addresses: the same hourly limit as asking for the link again.
        if mailEnabled, try database.emailTokenCount(userID: user.storedID, purpose: .verify, since: Date().addingTimeInterval(-3_600)) >= 3 {
            throw HTTPError(.tooManyRequests, message: localizer.text("errors.verify_limit", context.language))
        }
        do {
            try database.changeEmail(userID: user.storedID, to: email)
        } catch StorageError.emailTaken {
            errors.add("email", "errors.email_taken")
            return try renderSettings(ProfileFields(user), user: user, errors: errors, newEmail: email, context)
        }
        var changed = user
        changed.email = email
        if mailEnabled {
            try sendVerificationLink(changed)
            try sendEmailChangedNotice(changed, oldAddress: user.email)
        }
        return redirect(to: Paths.settings, flash: "email_changed")
    }

    /// `POST /settings/mail`: the digest's period and meetup notices.
    func settingsMailUpdate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let digest = MailSettings.Digest(rawValue: context.form["digest"] ?? "") else {
            throw HTTPError(.unprocessableContent, message: localizer.text("errors.choice", context.language))
        }
        try database.updateMailSettings(userID: user.storedID, digest: digest, meetupNotices: context.form["meetup_notices"] == "on")
        return redirect(to: Paths.settings, flash: "mail_saved")
    }

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
        guard let token = context.request.parameters["token"], try database.unsubscribe(token: token, from: list) else {
            throw HTTPError(.notFound, message: localizer.text("unsubscribe.invalid", context.language))
        }
        return renderUnsubscribe(user, list: list, done: true, context)
    }

    private func unsubscribeTarget(_ context: RequestContext) throws -> (User, MailSettings.List) {
        guard let token = context.request.parameters["token"], let (user, _) = try database.mailSettings(unsubscribeToken: token) else {
            throw HTTPError(.notFound, message: localizer.text("unsubscribe.invalid", context.language))
        }
        // In the address for a one-click POST (whose body is only `List-Unsubscribe=One-Click`).
        let list = context.request.query["list"] ?? context.form["list"] ?? ""
        return (user, MailSettings.List(rawValue: list) ?? .digest)
    }

    private func renderUnsubscribe(_ user: User, list: MailSettings.List, done: Bool, _ context: RequestContext) -> HTTPResponse {
        let language = context.language
        let key = "unsubscribe.\(list.rawValue)_\(done ? "done" : "question")"
        let view = UnsubscribeView(
            done: done, message: localizer.text(key, language, ["email": user.email]),
            action: Paths.unsubscribe(context.request.parameters["token"] ?? "", list: list), list: list.rawValue)
        var response = page(view, context, title: localizer.text("unsubscribe.title", language))
        response.headers.set("Referrer-Policy", "no-referrer")
        return response
    }
}
