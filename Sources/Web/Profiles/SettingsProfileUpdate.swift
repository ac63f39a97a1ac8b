import HTTP

extension App {
    /// `POST /settings`: saves the profile fields.
    func settingsProfileUpdate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let fields = ProfileFields(context.form)
        var errors = FieldErrors()
        fields.validate(into: &errors)
        guard errors.isEmpty else { return try renderSettings(fields, user: user, errors: errors, context) }
        _ = try database.profiles.updateProfile(userID: user.storedID, fields.changes)
        return redirect(to: Paths.settings, flash: \.profile_saved)
    }
}
