import HTTP
import Storage

extension App {
    /// `POST /signup`: creates the account and signs it in.
    func signupCreate(_ context: RequestContext) throws -> HTTPResponse {
        let next = Paths.local(context.form["next"])
        guard context.user == nil else { return .redirect(to: next) }
        let address = AddressKey.of(context.request.remoteAddress)
        let form = SignupForm(context.form)
        if let wait = signupLimit.retryAfter(address) {
            // The form again, with what was typed, and how long the wait really is.
            let refusal = localizer.text(.signup.too_many, context.language, ["wait": localizer.duration(wait, context.language)])
            var response = try renderSignup(form, errors: FieldErrors(), refusal: refusal, status: .tooManyRequests, context)
            response.headers.set("Retry-After", String(wait))
            return response
        }
        // Under 14 needs a guardian's consent, which a form cannot take: nothing is kept.
        if form.consent.isUnder14 { return underAge(context) }
        var errors = form.validate()
        let consent = form.consent.consent(current: try currentDocuments(), asking: ConsentView.signup, into: &errors)
        guard errors.isEmpty, let consent else { return try renderSignup(form, errors: errors, context) }

        var profile = form.profile.changes
        profile.language = profile.language ?? context.language.rawValue
        let candidate = User(
            username: form.username, email: form.email, passwordHash: try passwords.hash(form.password),
            displayName: profile.displayName, gender: profile.gender, birthYear: profile.birthYear,
            job: profile.job, region: profile.region, language: profile.language
        )
        let user: User
        do {
            user = try database.accounts.createUser(candidate, consent: consent)
        } catch StorageError.usernameTaken {
            errors.add("username", .errors.username_taken)
            return try renderSignup(form, errors: errors, context)
        } catch StorageError.emailTaken {
            errors.add("email", .errors.email_taken)
            return try renderSignup(form, errors: errors, context)
        }
        signupLimit.record(address)
        if mailEnabled { try sendVerificationLink(user) }
        var response = redirect(to: next, flash: mailEnabled ? \.welcome_verify : \.welcome)
        try signIn(user, in: context, on: &response)
        return response
    }
}
