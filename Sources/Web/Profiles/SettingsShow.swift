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
    /// The site sends mail; else the mail sections are hidden and the page says so.
    let mailEnabled: Bool
    let verified: Bool
    /// What was typed in the change-of-address form.
    let newEmail: String
    let digestOptions: [Choice]
    let meetupNotices: Bool
    let meetupReminders: Bool
    /// Sign-in providers: linked or not.
    let providers: [ProviderLink]
    var hasProviders: Bool { !providers.isEmpty }
    /// An account made through a provider has no password until it sets one.
    let hasPassword: Bool
    let workplace: WorkplaceSettingsView
    /// Who may start a conversation with the member.
    let whoMayStart: [Choice]
    /// Takes news and offers by mail.
    let marketing: Bool
}

extension App {
    /// `GET /settings`
    func settingsShow(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        return try renderSettings(ProfileFields(user), user: user, errors: FieldErrors(), context)
    }

    func renderSettings(_ fields: ProfileFields, user: User, errors: FieldErrors, newEmail: String = "", workEmail: String = "",
                        _ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        let mail = try database.mail.mailSettings(userID: user.storedID)
        let view = SettingsView(
            username: user.username, email: user.email, profile: profileForm(fields, language),
            errors: errors.localized(localizer, language), unitsKm: user.units != "mi", onLeaderboard: user.onLeaderboard,
            mailEnabled: mailEnabled, verified: mail.isVerified(user.email), newEmail: newEmail,
            digestOptions: MailSettings.Digest.allCases.map {
                Choice(value: $0.rawValue, label: localizer.text($0.textKey, language), selected: $0 == mail.digest)
            },
            meetupNotices: mail.meetupNotices,
            meetupReminders: mail.meetupReminders,
            providers: try providerLinks(user),
            hasPassword: !user.passwordHash.isEmpty,
            workplace: try workplaceSettings(user, address: workEmail, next: context.request.query["for"] ?? context.form["next"], language),
            whoMayStart: try {
                let rule = try database.talk.whoMayStart(userID: user.storedID)
                return WhoMayStart.allCases.map { Choice(value: $0.rawValue, label: localizer.text($0.textKey, language), selected: $0 == rule) }
            }(),
            marketing: user.marketingSince != nil)
        return page(view, context, title: localizer.text(.settings.title, language), status: errors.isEmpty ? .ok : .unprocessableContent)
    }
}

extension App {
    /// `POST /settings/marketing`: news and offers by mail, or no longer.
    func marketingUpdate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        try database.accounts.setMarketing(userID: user.storedID, context.form["marketing"] == "yes")
        return redirect(to: Paths.settings + "#account", flash: \.prefs_saved)
    }
}
