import HTTP

extension App {
    /// `GET /signup`
    func signupShow(_ context: RequestContext) throws -> HTTPResponse {
        guard context.user == nil else { return .redirect(to: Paths.home) }
        return try renderSignup(SignupForm(URLEncodedForm()), errors: FieldErrors(), context)
    }

    func renderSignup(_ form: SignupForm, errors: FieldErrors, _ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        var fields = form.profile
        if fields.language.isEmpty { fields.language = language.rawValue }
        return try render(
            "signup", context, title: localizer.text("signup.title", language),
            status: errors.isEmpty ? .ok : .unprocessableContent,
            [
                "username": form.username,
                "email": form.email,
                "profile": profileView(fields, language),
                "errors": errors.localized(localizer, language),
                "hasErrors": !errors.isEmpty,
            ]
        )
    }
}
