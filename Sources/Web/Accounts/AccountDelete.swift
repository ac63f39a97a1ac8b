import Foundation
import HTTP
import Storage

/// Settings → Delete account: what happens, then the password (or, for an account that signs
/// in only through a provider, a sign-in of the last few minutes), and the choice of what
/// happens to what the member wrote.
struct AccountDeleteView: PageView {
    static let template = "account-delete"
    /// Crews others are in that the member owns: handed over first.
    let crews: [CrewLink]
    var mustHandOver: Bool { !crews.isEmpty }
    let hasPassword: Bool
    /// A passwordless account signed in long ago: asked to sign in again first.
    let needsFreshSignIn: Bool
    var canDelete: Bool { crews.isEmpty && !needsFreshSignIn }
    let removeContent: Bool
    let error: String?
}

struct CrewLink {
    let name: String
    let url: String
}

extension App {
    /// How recent a provider sign-in deletes an account without a password.
    static let freshSignIn: TimeInterval = 10 * 60

    /// `GET /settings/delete`
    func accountDeleteShow(_ context: RequestContext) throws -> HTTPResponse {
        try renderAccountDelete(context, removeContent: false, error: nil, status: .ok)
    }

    /// `POST /settings/delete`: erases the account at once, signs this browser out, and says so.
    func accountDelete(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let removeContent = context.form["content"] == "delete"
        guard ["keep", "delete"].contains(context.form["content"] ?? "") else { throw HTTPError(.badRequest) }
        guard try database.accounts.crewsToHandOver(userID: user.storedID).isEmpty else {
            return try renderAccountDelete(context, removeContent: removeContent, error: nil, status: .conflict)
        }
        if user.passwordHash.isEmpty {
            guard let session = context.session, Date().timeIntervalSince(session.createdAt) < Self.freshSignIn else {
                return try renderAccountDelete(context, removeContent: removeContent, error: nil, status: .forbidden)
            }
        } else {
            // Wrong passwords count as failed sign-ins to the account.
            let account = "user:\(try user.storedID)", address = AddressKey.of(context.request.remoteAddress)
            if let wait = loginThrottle.retryAfter(account: account, address: address) {
                throw HTTPError(.tooManyRequests, message: localizer.text(.errors.login_throttled, context.language), headers: ["Retry-After": String(wait)])
            }
            guard try passwords.verify(context.form["password"] ?? "", against: user.passwordHash) else {
                loginThrottle.recordFailure(account: account, address: address)
                return try renderAccountDelete(context, removeContent: removeContent,
                                               error: localizer.text(.account.wrong_password, context.language), status: .unprocessableContent)
            }
        }
        let deletion = try storageAction(context, [.locked: .account.hand_over]) {
            try database.accounts.deleteAccount(userID: user.storedID, removingContent: removeContent)
        }
        media.delete(deletion.mediaFiles)
        if let file = deletion.exportFile { media.deleteExport(file) }
        revoke(deletion.providerGrants)
        var response = redirect(to: Paths.home, flash: \.account_deleted)
        response.setCookie(.expired(cookies.session, secure: cookies.secure))
        return response
    }

    private func renderAccountDelete(_ context: RequestContext, removeContent: Bool, error: String?, status: HTTPStatus) throws -> HTTPResponse {
        let user = try context.requireUser()
        let crews = try database.accounts.crewsToHandOver(userID: user.storedID).map { CrewLink(name: $0.name, url: Paths.crewMembers($0.slug)) }
        let fresh = context.session.map { Date().timeIntervalSince($0.createdAt) < Self.freshSignIn } ?? false
        let view = AccountDeleteView(crews: crews, hasPassword: !user.passwordHash.isEmpty, needsFreshSignIn: user.passwordHash.isEmpty && !fresh,
                                     removeContent: removeContent, error: error)
        return page(view, context, title: localizer.text(.account.delete_title, context.language), status: status)
    }
}
