import Foundation
import HTTP
import Storage

extension App {
    /// `POST /settings/email`: a new address, with the current password. The new address gets
    /// a link to prove it; the old one is told, in case it was not the owner.
    func settingsEmailUpdate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let email = (context.form["email"] ?? "").trimmed.lowercased()
        var errors = FieldErrors()
        if !SignupForm.isValidEmail(email) {
            errors.add("email", .errors.email_format)
        } else if email == user.email.lowercased() {
            errors.add("email", .errors.email_same)
        }
        if !(try passwords.verify(context.form["email_password"] ?? "", against: user.passwordHash)) {
            errors.add("email_password", .errors.current_password)
        }
        guard errors.isEmpty else { return try renderSettings(ProfileFields(user), user: user, errors: errors, newEmail: email, context) }
        // Each change mails two addresses: the same hourly limit as asking for the link again.
        if mailEnabled, try database.accounts.emailTokenCount(userID: user.storedID, purpose: .verify, since: Date().addingTimeInterval(-3_600)) >= 3 {
            throw HTTPError(.tooManyRequests, message: localizer.text(.errors.verify_limit, context.language))
        }
        var changed = user
        changed.email = email
        // The new address, its proof link and both mails in one transaction: never a changed
        // address whose mails were lost on the way.
        let (mails, tokenHash) = addressChangeMails(changed, oldAddress: user.email)
        do {
            try database.accounts.changeEmail(userID: user.storedID, to: email, proof: mailEnabled ? (tokenHash, MailLinks.verifyLifetime) : nil, mails: mails)
        } catch StorageError.emailTaken {
            errors.add("email", .errors.email_taken)
            return try renderSettings(ProfileFields(user), user: user, errors: errors, newEmail: email, context)
        }
        mailSender?.wake()
        return redirect(to: Paths.settings, flash: \.email_changed)
    }
}
