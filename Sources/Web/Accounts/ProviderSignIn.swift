import Formats
import Foundation
import HTTP
import Network
import Storage

extension App {
    /// `GET /auth/:provider` (`?next=`, or `?link=1` from settings): off to the provider with
    /// a fresh `state` (also kept in a cookie, so the answer must come back to this browser),
    /// a nonce and a PKCE verifier, all of them used once.
    func providerStart(_ context: RequestContext) throws -> HTTPResponse {
        let provider = try signInProvider(context)
        let linking = context.form["link"] == "1"
        if linking { _ = try context.requireUser() }
        let attempt = SignInAttempt(
            state: Crypto.randomToken(), provider: provider.configuration.id, nonce: Crypto.randomToken(), verifier: Crypto.randomToken(),
            next: linking ? Paths.settings : Paths.local(context.form["next"]), linkUserID: linking ? context.user?.id : nil)
        try database.accounts.startSignIn(attempt)
        let address: String
        do {
            address = try provider.authorizationURL(state: attempt.state, nonce: attempt.nonce, verifier: attempt.verifier,
                                                    redirectURI: callbackURL(provider, context))
        } catch {
            Self.logSignIn(provider, "cannot start: \(error)")
            throw providerUnavailable(provider, context)
        }
        var response = HTTPResponse.redirect(to: address, status: .found)
        var cookie = SetCookie(name: cookies.signIn, value: attempt.state, maxAge: Int(AppDatabase.signInLifetime), secure: cookies.secure)
        // Apple posts its answer from its own site: a Lax cookie would stay behind.
        if provider.configuration.postsBack, cookies.secure { cookie.sameSite = .none }
        response.setCookie(cookie)
        return response
    }

    /// `GET` or `POST /auth/:provider/callback`: the provider's answer. Signs in the member the
    /// provider account belongs to, links it for a member linking it, or asks a newcomer for a
    /// username. Every refusal is a page that says what to do, and a log line that says why.
    func providerCallback(_ context: RequestContext) throws -> HTTPResponse {
        let provider = try signInProvider(context)
        let language = context.language
        if context.form["error"] != nil {
            // Cancelled at the provider.
            return redirect(to: Paths.login, flash: \.sign_in_cancelled)
        }
        let state = context.form["state"] ?? ""
        let remembered = context.request.cookies[cookies.signIn] ?? ""
        guard !state.isEmpty, state.utf8.count <= 100, Crypto.constantTimeEqual(state, remembered),
              let attempt = try database.accounts.takeSignIn(state: state, provider: provider.configuration.id)
        else {
            Self.logSignIn(provider, "refused an answer with an unknown, used or expired state")
            throw HTTPError(.badRequest, message: localizer.text(.providers.errors.state, language, ["provider": provider.configuration.name]))
        }
        let token: ProviderIdentity
        do {
            token = try provider.signIn(code: String((context.form["code"] ?? "").prefix(2048)), state: state, verifier: attempt.verifier,
                                        nonce: attempt.nonce, redirectURI: callbackURL(provider, context))
        } catch {
            Self.logSignIn(provider, "refused: \(error)")
            throw HTTPError(.badGateway, message: localizer.text(.providers.errors.token, language, ["provider": provider.configuration.name]))
        }
        var response: HTTPResponse
        if let userID = attempt.linkUserID {
            guard context.user?.id == userID else { throw HTTPError(.forbidden) }
            do {
                try database.accounts.link(provider: provider.configuration.id, subject: token.subject, userID: userID, refreshToken: token.refreshToken)
                response = redirect(to: Paths.settings, flash: \.provider_linked)
            } catch StorageError.duplicate {
                response = redirect(to: Paths.settings, flash: \.provider_taken)
            }
        } else if let user = try database.accounts.user(provider: provider.configuration.id, subject: token.subject) {
            if user.isSuspended() { throw HTTPError(.forbidden, message: suspensionMessage(user, language)) }
            if let grant = token.refreshToken {
                try database.accounts.keepRefreshToken(grant, provider: provider.configuration.id, subject: token.subject)
            }
            response = redirect(to: attempt.next, flash: \.signed_in)
            try signIn(user, in: context, on: &response)
        } else {
            // A newcomer: keep the provider account while they pick a username. Only an address
            // the provider verified is offered, and never used to join an existing account.
            let pending = PendingIdentity(provider: provider.configuration.id, subject: token.subject,
                                          email: token.emailVerified ? token.email : nil, name: token.name ?? token.preferredUsername,
                                          next: attempt.next, refreshToken: token.refreshToken)
            let key = Crypto.randomToken()
            try database.accounts.keepPendingIdentity(pending, token: key)
            response = .redirect(to: Paths.providerSignup)
            response.setCookie(SetCookie(name: cookies.pendingIdentity, value: key, maxAge: Int(AppDatabase.signInLifetime), secure: cookies.secure))
        }
        response.setCookie(.expired(cookies.signIn, secure: cookies.secure))
        return response
    }

    /// The provider `:provider` names, configured on this site; 404 otherwise.
    private func signInProvider(_ context: RequestContext) throws -> OpenIDProvider {
        guard let id = context.request.parameters["provider"], let provider = providers.first(where: { $0.configuration.id == id }) else {
            throw HTTPError(.notFound)
        }
        return provider
    }

    /// Where the provider sends the browser back: registered with the provider, so it is the
    /// site's public address (`--base-url`).
    func callbackURL(_ provider: OpenIDProvider, _ context: RequestContext) -> String {
        publicURL(context).origin + Paths.providerCallback(provider.configuration.id)
    }

    private func providerUnavailable(_ provider: OpenIDProvider, _ context: RequestContext) -> HTTPError {
        HTTPError(.serviceUnavailable, message: localizer.text(.providers.errors.unavailable, context.language, ["provider": provider.configuration.name]),
                  headers: ["Retry-After": "30"])
    }

    /// Revokes grants at their providers once the member's link to them is gone (an account
    /// deleted, a provider unlinked). A provider that cannot be reached is logged: the grant
    /// stays at the provider, while Moim keeps nothing of it.
    func revoke(_ grants: [ProviderGrant]) {
        for grant in grants {
            guard let provider = providers.first(where: { $0.configuration.id == grant.provider }) else { continue }
            do {
                try provider.revoke(refreshToken: grant.refreshToken)
            } catch {
                Self.logSignIn(provider, "could not revoke a deleted link's grant: \(error)")
            }
        }
    }

    static func logSignIn(_ provider: OpenIDProvider, _ message: String) {
        FileHandle.standardError.write(Data("moim: sign-in with \(provider.configuration.id): \(message)\n".utf8))
    }
}
