import Formats
import Foundation
import HTTP
import Network
import Storage

/// Settings → Passkeys: the member's passkeys (added and removed here), and signing in with
/// one from the login page without typing a username (a discoverable credential), which also
/// gives a session its second factor. The browser's part is `passkeys.js`; without JavaScript
/// the pages say passkeys need it.
struct PasskeysView: PageView {
    static let template = "passkeys"
    let passkeys: [PasskeyRow]
    var hasPasskeys: Bool { !passkeys.isEmpty }
    let error: String?
}

struct PasskeyRow {
    let id: Int64
    let name: String
    /// "Added 2026-11-27 · last used …"
    let times: String
}

extension App {
    /// The site's relying party: its host (no port) and origin, from `--base-url` or the request.
    func relyingParty(_ context: RequestContext) -> WebAuthn.RelyingParty {
        let origin = publicURL(context).origin
        return WebAuthn.RelyingParty(id: URLComponents(string: origin)?.host ?? "", origin: origin)
    }

    /// `GET /settings/passkeys`
    func passkeysShow(_ context: RequestContext) throws -> HTTPResponse {
        try renderPasskeys(context, error: nil, status: .ok)
    }

    private func renderPasskeys(_ context: RequestContext, error: String?, status: HTTPStatus) throws -> HTTPResponse {
        let user = try context.requireUser()
        let language = context.language
        let rows = try database.accounts.passkeys(userID: user.storedID).map { key in
            PasskeyRow(id: key.id, name: key.name, times: localizer.text(.passkeys.times, language, [
                "added": localizer.date(key.createdAt, language),
                "used": key.lastUsedAt.map { localizer.dateTime($0, language) } ?? localizer.text(.passkeys.never, language),
            ]))
        }
        return page(PasskeysView(passkeys: rows, error: error), context, title: localizer.text(.passkeys.title, language), status: status)
    }

    /// `POST /settings/passkeys/options`: what `navigator.credentials.create` needs, as JSON,
    /// with a new challenge for this member.
    func passkeyRegistrationOptions(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let challenge = try newPasskeyChallenge(purpose: "register", userID: user.storedID)
        let party = relyingParty(context)
        let existing = try database.accounts.passkeys(userID: user.storedID).map { ["type": "public-key", "id": Base64URL.encode(Array($0.credentialID))] }
        return try jsonAnswer([
            "challenge": Base64URL.encode(challenge),
            "rp": ["id": party.id, "name": configuration.siteName],
            "user": ["id": Base64URL.encode(Self.userHandle(try user.storedID)), "name": user.username, "displayName": user.displayName],
            "pubKeyCredParams": PasskeyKey.Algorithm.allCases.map { ["type": "public-key", "alg": $0.rawValue] },
            "authenticatorSelection": ["residentKey": "required", "requireResidentKey": true, "userVerification": "required"],
            "attestation": "none",
            "excludeCredentials": existing,
            "timeout": AccountStore.passkeyChallengeSeconds * 1000,
        ])
    }

    /// `POST /settings/passkeys`: the browser's answer; the passkey is kept under its name.
    func passkeyRegister(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let party = relyingParty(context)
        let name = (context.form["name"] ?? "").trimmed
        guard let clientData = context.form["client_data"].flatMap(Base64URL.decode),
              let attestation = context.form["attestation"].flatMap(Base64URL.decode), attestation.count <= 16_384 else {
            return try renderPasskeys(context, error: localizer.text(.passkeys.failed, context.language), status: .badRequest)
        }
        do {
            let challenge = try WebAuthn.challenge(in: clientData, type: "webauthn.create", party: party)
            guard try database.accounts.usePasskeyChallenge(hash: Crypto.sha256(challenge), purpose: "register", userID: user.storedID) else {
                throw WebAuthn.Failure.wrongChallenge
            }
            let credential = try WebAuthn.register(clientDataJSON: clientData, attestationObject: attestation, party: party)
            try database.accounts.addPasskey(userID: user.storedID, credentialID: Data(credential.id), publicKey: Data(credential.publicKey),
                                             algorithm: credential.algorithm.rawValue, signCount: Int64(credential.signCount),
                                             name: name.fits(1, 60) ? name : localizer.text(.passkeys.default_name, context.language))
        } catch let failure as WebAuthn.Failure {
            log("passkey registration refused: \(failure)")
            return try renderPasskeys(context, error: localizer.text(.passkeys.failed, context.language), status: .unprocessableContent)
        } catch StorageError.duplicate {
            return try renderPasskeys(context, error: localizer.text(.passkeys.failed, context.language), status: .conflict)
        }
        return redirect(to: Paths.passkeys, flash: \.passkey_added)
    }

    /// `POST /settings/passkeys/:id/delete`
    func passkeyRemove(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let id = context.request.parameters["id"].flatMap({ Checked.id($0) }),
              try database.accounts.removePasskey(id: id, userID: user.storedID) else { throw HTTPError(.notFound) }
        return redirect(to: Paths.passkeys, flash: \.passkey_removed)
    }

    /// `POST /login/passkey/options`: a challenge for signing in with any passkey of this site
    /// (or, signed in, with one of the member's own, as a second factor).
    func passkeySignInOptions(_ context: RequestContext) throws -> HTTPResponse {
        let challenge = try newPasskeyChallenge(purpose: "signin", userID: context.user?.id)
        return try jsonAnswer([
            "challenge": Base64URL.encode(challenge),
            "rpId": relyingParty(context).id,
            "userVerification": "required",
            "timeout": AccountStore.passkeyChallengeSeconds * 1000,
        ])
    }

    /// `POST /login/passkey`: signs in the passkey's member (with a second factor given), or
    /// gives the signed-in member's session its second factor; then on to `next`.
    func passkeySignIn(_ context: RequestContext) throws -> HTTPResponse {
        let next = Paths.local(context.form["next"])
        let address = AddressKey.of(context.request.remoteAddress)
        if let wait = loginThrottle.perAddress.retryAfter(address) {
            throw HTTPError(.tooManyRequests, message: localizer.text(.errors.login_throttled, context.language), headers: ["Retry-After": String(wait)])
        }
        let refused = HTTPError(.unprocessableContent, message: localizer.text(.passkeys.sign_in_failed, context.language))
        guard let credentialID = context.form["credential_id"].flatMap(Base64URL.decode), (1...1_023).contains(credentialID.count),
              let clientData = context.form["client_data"].flatMap(Base64URL.decode),
              let authenticatorData = context.form["authenticator_data"].flatMap(Base64URL.decode), authenticatorData.count <= 4_096,
              let signature = context.form["signature"].flatMap(Base64URL.decode), signature.count <= 1_024 else { throw HTTPError(.badRequest) }
        let party = relyingParty(context)
        do {
            guard let passkey = try database.accounts.passkey(credentialID: Data(credentialID)),
                  context.user == nil || context.user?.id == passkey.userID,
                  let owner = try database.accounts.user(id: passkey.userID) else { throw WebAuthn.Failure.badSignature }
            // A browser that names the member (the user handle) must name this one.
            if let handle = context.form["user_handle"], !handle.isEmpty, Base64URL.decode(handle) != Self.userHandle(passkey.userID) {
                throw WebAuthn.Failure.badSignature
            }
            let challenge = try WebAuthn.challenge(in: clientData, type: "webauthn.get", party: party)
            guard try database.accounts.usePasskeyChallenge(hash: Crypto.sha256(challenge), purpose: "signin", userID: context.user?.id) else {
                throw WebAuthn.Failure.wrongChallenge
            }
            let count = try WebAuthn.authenticate(clientDataJSON: clientData, authenticatorData: authenticatorData, signature: signature,
                                                  publicKey: Array(passkey.publicKey), storedCount: UInt32(clamping: passkey.signCount), party: party)
            if owner.isSuspended() { throw HTTPError(.forbidden, message: suspensionMessage(owner, context.language)) }
            if let session = context.session, context.user != nil {
                guard try database.accounts.usePasskey(id: passkey.id, signCount: Int64(count), sessionID: session.storedID) else { throw WebAuthn.Failure.counterWentBack }
                return redirect(to: next)
            }
            var response = redirect(to: next, flash: \.signed_in)
            let session = try signIn(owner, in: context, on: &response)
            guard try database.accounts.usePasskey(id: passkey.id, signCount: Int64(count), sessionID: session.storedID) else {
                try database.sessions.deleteSession(id: session.storedID)
                throw WebAuthn.Failure.counterWentBack
            }
            return response
        } catch let failure as WebAuthn.Failure {
            loginThrottle.perAddress.record(address)
            log("passkey sign-in refused: \(failure)")
            throw refused
        }
    }

    /// A member's handle for authenticators: their id's eight bytes, nothing about them.
    static func userHandle(_ userID: Int64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: userID) >> (8 * (7 - $0))) }
    }

    private func newPasskeyChallenge(purpose: String, userID: Int64?) throws -> [UInt8] {
        let challenge = Crypto.randomBytes(32)
        try database.accounts.keepPasskeyChallenge(hash: Crypto.sha256(challenge), purpose: purpose, userID: userID)
        return challenge
    }

    private func jsonAnswer(_ object: [String: Any]) throws -> HTTPResponse {
        var response = HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", "application/json")]),
                                    body: Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])))
        response.headers.add("Cache-Control", "no-store")
        return response
    }
}
