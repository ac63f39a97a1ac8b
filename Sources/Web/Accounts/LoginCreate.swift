import Formats
import HTTP
import Storage

extension App {
    /// `POST /login`: signs in by username or email, with a fresh session token.
    func loginCreate(_ context: RequestContext) throws -> HTTPResponse {
        let login = (context.form["login"] ?? "").trimmed
        let password = context.form["password"] ?? ""
        let next = Paths.local(context.form["next"])
        let address = AddressKey.of(context.request.remoteAddress)
        guard !login.isEmpty, !password.isEmpty else {
            return renderLogin(login: login, next: next, error: .errors.login_missing, context)
        }
        let user = login.utf8.count <= 254 ? try database.accounts.user(login: login) : nil
        // Failures count against the account, however it was named: username and email
        // share one limit. A name with no account is kept as a hash, never as typed (a failed
        // sign-in as a deleted member must not write their name back).
        let account = user?.id.map { "user:\($0)" } ?? "login:" + Crypto.base64URL(Array(Crypto.sha256(Array(login.lowercased().utf8))))
        if let wait = loginThrottle.retryAfter(account: account, address: address) {
            var response = renderLogin(login: login, next: next, error: .errors.login_throttled, status: .tooManyRequests, context)
            response.headers.set("Retry-After", String(wait))
            return response
        }
        // Verify against a throwaway hash when there is no such user, so that the answer
        // takes as long either way and does not reveal which accounts exist.
        // An account made through a sign-in provider has no password (an empty hash) until it
        // sets one: it is checked against the throwaway hash too, and fails.
        let hash = user.flatMap { $0.passwordHash.isEmpty ? nil : $0.passwordHash }
        let verified = try passwords.verify(password, against: hash ?? dummyPasswordHash) && hash != nil
        guard let user, verified else {
            loginThrottle.recordFailure(account: account, address: address)
            return renderLogin(login: login, next: next, error: .errors.login_failed, context)
        }
        loginThrottle.recordSuccess(account: account)
        if user.isSuspended() {
            throw HTTPError(.forbidden, message: suspensionMessage(user, context.language))
        }
        var response = redirect(to: next, flash: \.signed_in)
        try signIn(user, in: context, on: &response)
        return response
    }
}
