import Foundation
import HTTP
import Storage

/// A newcomer from a sign-in provider picks a username (and an address when the provider
/// gave no verified one).
struct ProviderSignupView: PageView {
    static let template = "provider-signup"
    /// "Kakao"
    let provider: String
    let username: String
    let email: String
    /// The provider vouched for the address: it is shown, not asked for.
    let emailVerified: Bool
    let displayName: String
    let consent: ConsentView
    let errors: [String: String]
    var hasErrors: Bool { !errors.isEmpty }
}

extension App {
    /// `GET /signup/provider`
    func providerSignupShow(_ context: RequestContext) throws -> HTTPResponse {
        let pending = try pendingIdentity(context)
        let suggested = Self.suggestedUsername(pending)
        let taken = try database.accounts.user(username: suggested) != nil
        return try renderProviderSignup(pending, username: taken ? "" : suggested, email: pending.email ?? "",
                                        displayName: pending.name ?? "", consent: ConsentForm(URLEncodedForm()), errors: FieldErrors(), context)
    }

    /// `POST /signup/provider`: the account, with the provider linked, and signed in.
    func providerSignupCreate(_ context: RequestContext) throws -> HTTPResponse {
        let pending = try pendingIdentity(context)
        let address = AddressKey.of(context.request.remoteAddress)
        let username = (context.form["username"] ?? "").trimmed.lowercased()
        // A verified address stays the provider's; otherwise the newcomer types one.
        let email = pending.email ?? (context.form["email"] ?? "").trimmed.lowercased()
        let displayName = (context.form["display_name"] ?? "").trimmed
        var errors = FieldErrors()
        if !SignupForm.isValidUsername(username) {
            errors.add("username", .errors.username_format)
        } else if SignupForm.reservedUsernames.contains(username) {
            errors.add("username", .errors.username_taken)
        }
        if !SignupForm.isValidEmail(email) { errors.add("email", .errors.email_format) }
        if displayName.isEmpty || displayName.count > 50 { errors.add("display_name", .errors.display_name) }
        let agreed = ConsentForm(context.form)
        if agreed.isUnder14 { return underAge(context) }
        let consent = agreed.consent(current: try currentDocuments(), asking: ConsentView.signup, into: &errors)
        if let wait = signupLimit.retryAfter(address) {
            throw HTTPError(.tooManyRequests, message: localizer.text(.signup.too_many, context.language, ["wait": localizer.duration(wait, context.language)]),
                            headers: ["Retry-After": String(wait)])
        }
        guard errors.isEmpty, let consent else {
            return try renderProviderSignup(pending, username: username, email: email, displayName: displayName, consent: agreed, errors: errors, context)
        }
        // No password: this account signs in through its provider until it sets one.
        let candidate = User(username: username, email: email, passwordHash: "", displayName: displayName, language: context.language.rawValue)
        let user: User
        do {
            user = try database.accounts.createUser(candidate, identity: pending, consent: consent)
        } catch StorageError.usernameTaken {
            errors.add("username", .errors.username_taken)
            return try renderProviderSignup(pending, username: username, email: email, displayName: displayName, consent: agreed, errors: errors, context)
        } catch StorageError.emailTaken {
            // Never joined to the existing account by address: its owner links the provider
            // from their settings after signing in.
            errors.add("email", .errors.email_taken_provider)
            return try renderProviderSignup(pending, username: username, email: email, displayName: displayName, consent: agreed, errors: errors, context)
        } catch StorageError.duplicate {
            throw HTTPError(.conflict, message: localizer.text(.providers.errors.state, context.language, ["provider": pending.provider]))
        }
        signupLimit.record(address)
        if let token = context.request.cookies[cookies.pendingIdentity] { try database.accounts.dropPendingIdentity(token: token) }
        // On to where they were going (`next` is a local path, checked when the sign-in began).
        var response = redirect(to: pending.next, flash: \.welcome)
        response.setCookie(.expired(cookies.pendingIdentity, secure: cookies.secure))
        try signIn(user, in: context, on: &response)
        return response
    }

    private func pendingIdentity(_ context: RequestContext) throws -> PendingIdentity {
        guard context.user == nil else { throw Redirect(to: Paths.home) }
        guard let token = context.request.cookies[cookies.pendingIdentity], token.utf8.count <= 100,
              let pending = try database.accounts.pendingIdentity(token: token) else { throw Redirect(to: Paths.login) }
        return pending
    }

    private func renderProviderSignup(_ pending: PendingIdentity, username: String, email: String, displayName: String,
                                      consent: ConsentForm, errors: FieldErrors, _ context: RequestContext) throws -> HTTPResponse {
        let name = providers.first { $0.configuration.id == pending.provider }?.configuration.name ?? pending.provider
        let view = ProviderSignupView(provider: name, username: username, email: email, emailVerified: pending.email != nil,
                                      displayName: displayName, consent: ConsentView(consent, current: try currentDocuments(), asking: ConsentView.signup),
                                      errors: errors.localized(localizer, context.language))
        return page(view, context, title: localizer.text(.providers.signup_title, context.language),
                    status: errors.isEmpty ? .ok : .unprocessableContent)
    }

    /// A username from the provider's profile: the verified address's local part or the
    /// name, cut down to what usernames may hold.
    static func suggestedUsername(_ pending: PendingIdentity) -> String {
        let source = pending.email.map { String($0.split(separator: "@").first ?? "") } ?? pending.name ?? ""
        let allowed = source.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        let name = String(String.UnicodeScalarView(allowed.prefix(20)))
        return name.utf8.count >= 3 ? name : ""
    }
}
