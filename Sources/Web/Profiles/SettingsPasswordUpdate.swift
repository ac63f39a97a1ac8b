import HTTP

extension App {
    /// `POST /settings/password`: changes the password and signs out every other browser.
    func settingsPasswordUpdate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let current = context.form["current_password"] ?? ""
        let new = context.form["new_password"] ?? ""
        var errors = FieldErrors()
        PasswordRules.check(new, confirmation: context.form["new_password_confirmation"] ?? "", field: "new_password", into: &errors)
        // An account made through a sign-in provider sets its first password without one.
        if !user.passwordHash.isEmpty, !(try passwords.verify(current, against: user.passwordHash)) {
            errors.add("current_password", .errors.current_password)
        }
        guard errors.isEmpty else { return try renderSettings(ProfileFields(user), user: user, errors: errors, context) }
        try database.accounts.changePassword(userID: user.storedID, passwordHash: passwords.hash(new), keepingSession: context.session?.id)
        return redirect(to: Paths.settings, flash: \.password_changed)
    }
}
