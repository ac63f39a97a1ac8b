import Foundation
import HTTP
import Storage

extension App {
    /// `POST /settings/mail`: the digest's period, meetup notices and reminders.
    func settingsMailUpdate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let digest = MailSettings.Digest(rawValue: context.form["digest"] ?? "") else {
            throw HTTPError(.unprocessableContent, message: localizer.text(.errors.choice, context.language))
        }
        try database.mail.updateMailSettings(userID: user.storedID, digest: digest, meetupNotices: context.form["meetup_notices"] == "on",
                                             meetupReminders: context.form["meetup_reminders"] == "on")
        return redirect(to: Paths.settings, flash: \.mail_saved)
    }
}
