import Foundation
import Formats
import HTTP
import Network
import Storage

/// Two-factor sign-in in settings: set up with an authenticator app (a QR code and the secret
/// to type), confirmed by a first code, with ten recovery codes shown once; or turned off.
struct TwoFactorSettingsView: PageView {
    static let template = "two-factor-settings"
    let isOn: Bool
    /// "8 recovery codes left"
    let recoveryLeft: String?
    /// Being set up: the app's QR code and the secret in groups of four.
    let qr: QRView?
    let secret: String?
    /// Shown once, right after codes are turned on.
    let recoveryCodes: [String]
    var showsRecoveryCodes: Bool { !recoveryCodes.isEmpty }
    let error: String?
}

/// Asking a signed-in member for a code before a staff page.
struct TwoFactorCheckView: PageView {
    static let template = "two-factor"
    let returnTo: String
    var passkeyNext: String { returnTo }
    /// Which second factors the member has: a code from the app, passkeys.
    let hasCodes: Bool
    let hasPasskeys: Bool
    let error: String?
}

extension App {
    /// Recovery codes given when codes are turned on.
    static let recoveryCodeCount = 10

    /// `GET /settings/two-factor`
    func twoFactorSettings(_ context: RequestContext) throws -> HTTPResponse {
        try renderTwoFactor(context, recoveryCodes: [], error: nil, status: .ok)
    }

    /// `POST /settings/two-factor/setup`: a new secret to scan (replacing one not confirmed).
    func twoFactorSetup(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        try storageAction(context) { try database.accounts.beginTwoFactor(userID: user.storedID, secret: Base32.encode(Crypto.randomBytes(20))) }
        return redirect(to: Paths.twoFactorSettings + "#set-up")
    }

    /// `POST /settings/two-factor`: the app's first code turns codes on; the recovery codes
    /// are shown on the answer, once.
    func twoFactorConfirm(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let session = context.session?.id, let pending = try database.accounts.twoFactor(userID: user.storedID), !pending.isOn,
              let secret = Base32.decode(pending.secret) else { throw HTTPError(.notFound) }
        try checkCodeAttempts(user, context)
        guard let step = OneTimeCode.matchingStep(context.form["code"] ?? "", secret: secret, at: Date()) else {
            codeAttempts.record(String(try user.storedID))
            return try renderTwoFactor(context, recoveryCodes: [], error: localizer.text(.two_factor.wrong_code, context.language), status: .unprocessableContent)
        }
        let codes = (0..<Self.recoveryCodeCount).map { _ in Self.recoveryCode() }
        try database.accounts.confirmTwoFactor(userID: user.storedID, step: step, recoveryHashes: codes.map(Self.recoveryHash), sessionID: session)
        return try renderTwoFactor(context, recoveryCodes: codes, error: nil, status: .ok)
    }

    /// `POST /settings/two-factor/off`: with a code (or a recovery code), codes go.
    func twoFactorOff(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard try database.accounts.twoFactor(userID: user.storedID)?.isOn == true else { throw HTTPError(.notFound) }
        guard try acceptCode(user, context) else {
            return try renderTwoFactor(context, recoveryCodes: [], error: localizer.text(.two_factor.wrong_code, context.language), status: .unprocessableContent)
        }
        try database.accounts.disableTwoFactor(userID: user.storedID)
        return redirect(to: Paths.twoFactorSettings, flash: \.two_factor_off)
    }

    /// `GET /two-factor?return_to=…`: a code before a staff page.
    func twoFactorCheck(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let view = TwoFactorCheckView(returnTo: Paths.local(context.form["return_to"]),
                                      hasCodes: try database.accounts.twoFactor(userID: user.storedID)?.isOn == true,
                                      hasPasskeys: try !database.accounts.passkeys(userID: user.storedID).isEmpty, error: nil)
        return page(view, context, title: localizer.text(.two_factor.check_title, context.language))
    }

    /// `POST /two-factor`: a one-time or recovery code for this session, then back.
    func twoFactorVerify(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard try database.accounts.twoFactor(userID: user.storedID)?.isOn == true else { return redirect(to: Paths.twoFactorSettings) }
        let returnTo = Paths.local(context.form["return_to"])
        guard try acceptCode(user, context) else {
            let view = TwoFactorCheckView(returnTo: returnTo, hasCodes: true, hasPasskeys: try !database.accounts.passkeys(userID: user.storedID).isEmpty,
                                          error: localizer.text(.two_factor.wrong_code, context.language))
            return page(view, context, title: localizer.text(.two_factor.check_title, context.language), status: .unprocessableContent)
        }
        return redirect(to: returnTo)
    }

    /// Whether `code` in the form is this member's current one-time code, used for the first
    /// time, or one of their recovery codes not used yet; either counts for this session.
    /// Five wrong ones in five minutes are a 429.
    private func acceptCode(_ user: User, _ context: RequestContext) throws -> Bool {
        guard let session = context.session?.id, let stored = try database.accounts.twoFactor(userID: user.storedID),
              let secret = Base32.decode(stored.secret) else { return false }
        try checkCodeAttempts(user, context)
        let typed = context.form["code"] ?? ""
        let accepted = try OneTimeCode.matchingStep(typed, secret: secret, at: Date()).map {
            try database.accounts.useCode(userID: user.storedID, step: $0, sessionID: session)
        } ?? database.accounts.useRecoveryCode(userID: user.storedID, hash: Self.recoveryHash(typed), sessionID: session)
        if !accepted { codeAttempts.record(String(try user.storedID)) }
        return accepted
    }

    private func checkCodeAttempts(_ user: User, _ context: RequestContext) throws {
        if let retry = codeAttempts.retryAfter(String(try user.storedID)) {
            throw HTTPError(.tooManyRequests, message: localizer.text(.two_factor.too_many, context.language), headers: ["Retry-After": String(retry)])
        }
    }

    private func renderTwoFactor(_ context: RequestContext, recoveryCodes: [String], error: String?, status: HTTPStatus) throws -> HTTPResponse {
        let user = try context.requireUser()
        let language = context.language
        let stored = try database.accounts.twoFactor(userID: user.storedID)
        let pending = stored.flatMap { $0.isOn ? nil : $0.secret }
        let left = stored?.isOn == true ? try database.accounts.recoveryCodesLeft(userID: user.storedID) : nil
        let view = TwoFactorSettingsView(
            isOn: stored?.isOn == true,
            recoveryLeft: left.map { localizer.count(.two_factor.recovery_left, $0, language) },
            qr: pending.flatMap { secret in QRCode(authenticatorURI(secret: secret, account: user.username)) }.map { QRView(path: $0.svgPath, size: $0.size + 8) },
            secret: pending.map { secret in stride(from: 0, to: secret.count, by: 4).map { String(secret.dropFirst($0).prefix(4)) }.joined(separator: " ") },
            recoveryCodes: recoveryCodes, error: error)
        return page(view, context, title: localizer.text(.two_factor.title, language), status: status)
    }

    /// What an authenticator app scans: `otpauth://totp/Moim:mina?secret=…&issuer=Moim` (SHA-1,
    /// 6 digits and 30 seconds are what apps assume, and left out so that the QR code stays
    /// small; a site name too long for one leaves the key to type).
    func authenticatorURI(secret: String, account: String) -> String {
        let issuer = PercentEncoding.encode(configuration.siteName)
        return "otpauth://totp/\(issuer):\(PercentEncoding.encode(account))?secret=\(secret)&issuer=\(issuer)"
    }

    /// "k7qd-2xmf": eight letters and digits of base32, typed with or without the dash.
    static func recoveryCode() -> String {
        let text = Base32.encode(Crypto.randomBytes(5)).lowercased()
        return text.prefix(4) + "-" + text.dropFirst(4)
    }

    /// A recovery code as stored: the SHA-256 of its letters, lower case, without dash or spaces.
    static func recoveryHash(_ code: String) -> Data {
        Crypto.sha256(Array(code.lowercased().filter { $0 != "-" && $0 != " " }.utf8))
    }
}
