import HTTP
import Storage

extension App {
    /// `POST /language`: the footer's language switch. Remembered in the account when
    /// signed in, in a cookie otherwise.
    func languageUpdate(_ context: RequestContext) throws -> HTTPResponse {
        guard let language = context.form["language"].flatMap(Language.init(rawValue:)) else {
            throw HTTPError(.badRequest)
        }
        if let user = context.user {
            var changes = ProfileFields(user)
            changes.language = language.rawValue
            _ = try database.profiles.updateProfile(userID: user.storedID, changes.changes)
        }
        var response = redirect(to: Paths.local(context.form["return_to"]))
        response.setCookie(SetCookie(name: cookies.language, value: language.rawValue, maxAge: 365 * 24 * 3600, secure: cookies.secure))
        return response
    }
}
