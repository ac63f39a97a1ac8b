import Foundation
import HTTP
import Storage

extension App {
    /// `GET /email/verify/:token`: the address the link was sent to is proved the member's.
    func emailVerify(_ context: RequestContext) throws -> HTTPResponse {
        guard let hash = Self.emailTokenHash(context.request.parameters["token"]) else { throw linkError(.invalid, context.language) }
        switch try database.accounts.verifyEmail(tokenHash: hash) {
        case .success:
            return redirect(to: context.user == nil ? Paths.login : Paths.settings, flash: \.email_verified)
        case .failure(let error):
            throw linkError(error, context.language)
        }
    }

    /// `POST /settings/email/verify`: the link again, at most 3 an hour (counted in the
    /// database, so a restart does not reset it).
    func emailVerificationResend(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard mailEnabled else { throw HTTPError(.notFound) }
        if try database.accounts.emailTokenCount(userID: user.storedID, purpose: .verify, since: Date().addingTimeInterval(-3_600)) >= 3 {
            throw HTTPError(.tooManyRequests, message: localizer.text(.errors.verify_limit, context.language))
        }
        try sendVerificationLink(user)
        return redirect(to: Paths.settings, flash: \.verification_sent)
    }
}
