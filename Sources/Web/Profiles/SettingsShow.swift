import HTTP
import Storage

/// The member's settings: profile, units, leaderboard, password.
struct SettingsView: PageView {
    static let template = "settings"
    let username: String
    let email: String
    let profile: ProfileFormView
    /// Each field's error message, by field name.
    let errors: [String: String]
    var hasErrors: Bool { !errors.isEmpty }
    let unitsKm: Bool
    let onLeaderboard: Bool
}

extension App {
    /// `GET /settings`
    func settingsShow(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        return renderSettings(ProfileFields(user), user: user, errors: FieldErrors(), context)
    }

    func renderSettings(_ fields: ProfileFields, user: User, errors: FieldErrors, _ context: RequestContext) -> HTTPResponse {
        let language = context.language
        let view = SettingsView(
            username: user.username, email: user.email, profile: profileForm(fields, language),
            errors: errors.localized(localizer, language), unitsKm: user.units != "mi", onLeaderboard: user.onLeaderboard)
        return page(view, context, title: localizer.text("settings.title", language), status: errors.isEmpty ? .ok : .unprocessableContent)
    }
}
