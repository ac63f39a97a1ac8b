import HTTP

/// The signup form.
struct SignupView: PageView {
    static let template = "signup"
    let username: String
    let email: String
    let profile: ProfileFormView
    let consent: ConsentView
    /// Each field's error message, by field name.
    let errors: [String: String]
    var hasErrors: Bool { !errors.isEmpty }
    /// Why the whole form was refused (too many accounts from one network), kept with what was typed.
    var refusal: String? = nil
    /// "Continue with …" for each sign-in provider: an account without inventing a password.
    var providers: [ProviderButton] = []
    var hasProviders: Bool { !providers.isEmpty }
    /// Where to go once signed up (an invite link's crew), and the way to sign in instead.
    let next: String
    var loginURL: String { Paths.login(next: next) }
}

extension App {
    /// `GET /signup`
    func signupShow(_ context: RequestContext) throws -> HTTPResponse {
        guard context.user == nil else { return .redirect(to: Paths.local(context.form["next"])) }
        return try renderSignup(SignupForm(URLEncodedForm()), errors: FieldErrors(), context)
    }

    func renderSignup(_ form: SignupForm, errors: FieldErrors, refusal: String? = nil, status: HTTPStatus? = nil,
                      _ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        var fields = form.profile
        if fields.language.isEmpty { fields.language = language.rawValue }
        let consent = ConsentView(form.consent, current: try currentDocuments(), asking: ConsentView.signup)
        let next = Paths.local(context.form["next"])
        let view = SignupView(username: form.username, email: form.email, profile: profileForm(fields, language), consent: consent,
                              errors: errors.localized(localizer, language), refusal: refusal, providers: providerButtons(next: next), next: next)
        return page(view, context, title: localizer.text(.signup.title, language),
                    status: status ?? (errors.isEmpty ? .ok : .unprocessableContent))
    }
}
