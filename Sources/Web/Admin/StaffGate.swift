import Foundation
import HTTP
import Storage

extension App {
    /// Wraps every `/admin` handler: moderators and admins only. Anyone else gets a plain
    /// 404, so the area does not reveal that it exists, and nothing runs. Staff pages hold
    /// every member's data, so a password alone does not open them: staff give a passkey, a
    /// one-time code or a recovery code once per session, and set codes up first if they have
    /// neither codes nor passkeys.
    func staffPage(_ handler: @escaping @Sendable (RequestContext, User) throws -> HTTPResponse) -> HTTPRouter.Handler {
        page { [unowned self] context in
            guard let user = context.user, user.isStaff else { throw HTTPError(.notFound) }
            if configuration.requireStaffTwoFactor, context.session?.secondFactorAt == nil {
                let hasCodes = try database.accounts.twoFactor(userID: user.storedID)?.isOn == true
                guard try hasCodes || !database.accounts.passkeys(userID: user.storedID).isEmpty else {
                    return redirect(to: Paths.twoFactorSettings, flash: \.two_factor_needed)
                }
                let back = context.request.method == .get ? context.request.target : "/admin"
                return redirect(to: Paths.twoFactorCheck + "?return_to=" + PercentEncoding.encode(back))
            }
            return try handler(context, user)
        }
    }
}
