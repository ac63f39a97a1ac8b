import HTTP
import Storage

extension App {
    /// `GET /settings`
    func settingsShow(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        return try renderSettings(ProfileFields(user), user: user, errors: FieldErrors(), context)
    }

    func renderSettings(_ fields: ProfileFields, user: User, errors: FieldErrors, _ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        return try render(
            "settings", context, title: localizer.text("settings.title", language),
            status: errors.isEmpty ? .ok : .unprocessableContent,
            [
                "username": user.username,
                "email": user.email,
                "profile": profileView(fields, language),
                "errors": errors.localized(localizer, language),
                "hasErrors": !errors.isEmpty,
                "unitsKm": user.units != "mi",
                "onLeaderboard": user.onLeaderboard,
            ]
        )
    }
}
