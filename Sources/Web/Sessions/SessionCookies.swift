import Formats
import Foundation
import HTTP
import Storage

extension App {
    /// The live session named by the request's cookie, with its user.
    func currentSession(_ requestCookies: [String: String]) throws -> SignedInMember? {
        guard let token = requestCookies[cookies.session],
              let bytes = Crypto.decodeBase64URL(token), bytes.count == 32
        else { return nil }
        let now = Date()
        guard let member = try database.sessions.session(
            tokenHash: Crypto.sha256(bytes), lifetime: configuration.sessionLifetime, now: now),
            !member.user.isSuspended(at: now)
        else { return nil }
        // Recording every request would turn every page view into a write.
        if now.timeIntervalSince(member.session.lastSeenAt) > 600 {
            try database.sessions.touchSession(id: member.session.storedID, now: now)
        }
        return member
    }

    /// Starts a new session for `user` (ending `previous`, if any) and sets its cookie on `response`.
    @discardableResult
    func signIn(_ user: User, in context: RequestContext, on response: inout HTTPResponse) throws -> Session {
        if let previous = context.session { try database.sessions.deleteSession(id: previous.storedID) }
        // Signing in is rare enough to also sweep away everyone's expired sessions.
        _ = try database.sessions.deleteExpiredSessions(lifetime: configuration.sessionLifetime)
        let token = Crypto.randomBytes(32)
        // The browser's own description, for the member's list of signed-in browsers.
        let userAgent = String((context.request.headers["user-agent"] ?? "").unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(300))
        let session = try database.sessions.createSession(userID: user.storedID, tokenHash: Crypto.sha256(token), csrfToken: Crypto.randomToken(),
                                                          userAgent: userAgent)
        let maxAge = Int(configuration.sessionLifetime.absolute)
        response.setCookie(SetCookie(name: cookies.session, value: Crypto.base64URL(token), maxAge: maxAge, secure: cookies.secure))
        return session
    }

    func signOut(_ session: Session?, on response: inout HTTPResponse) throws {
        if let session { try database.sessions.deleteSession(id: session.storedID) }
        response.setCookie(.expired(cookies.session, secure: cookies.secure))
    }
}
