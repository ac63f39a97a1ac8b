import Formats
import Foundation
import HTTP
import Storage

/// Settings → Signed-in browsers: each session with its browser and system and when it was
/// first and last used; sign one out, or every other one (which also renews the private
/// calendar address); renew the calendar address alone.
struct SignedInBrowsersView: PageView {
    static let template = "signed-in-browsers"
    let browsers: [SignedInBrowser]
    var hasOthers: Bool { browsers.contains { !$0.isThis } }
}

struct SignedInBrowser {
    let id: Int64
    /// "Chrome on Android"
    let name: String
    /// "Signed in 2026-11-02 · last used today 09:14"
    let times: String
    let isThis: Bool
}

extension App {
    /// `GET /settings/browsers`
    func signedInBrowsers(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let language = context.language
        let browsers = try database.sessions.sessions(userID: user.storedID).map { session in
            SignedInBrowser(id: try session.storedID, name: browserName(session.userAgent, language),
                            times: localizer.text(.browsers.times, language, ["first": localizer.date(session.createdAt, language),
                                                                               "last": localizer.dateTime(session.lastSeenAt, language)]),
                            isThis: session.id == context.session?.id)
        }
        return page(SignedInBrowsersView(browsers: browsers), context, title: localizer.text(.browsers.title, language))
    }

    private func browserName(_ userAgent: String, _ language: Language) -> String {
        let name = BrowserName(userAgent: userAgent)
        let unknown = localizer.text(.browsers.unknown, language)
        guard name.browser != nil || name.system != nil else { return unknown }
        return localizer.text(.browsers.on, language, ["browser": name.browser ?? unknown, "system": name.system ?? unknown])
    }

    /// `POST /settings/browsers/:id/end`: signs that browser out (this one: as signing out).
    func signedInBrowserEnd(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let id = context.request.parameters["id"].flatMap({ Checked.id($0) }),
              try database.sessions.endSession(id: id, userID: user.storedID) else { throw HTTPError(.notFound) }
        guard id != context.session?.id else {
            var response = redirect(to: Paths.home, flash: \.signed_out)
            response.setCookie(.expired(cookies.session, secure: cookies.secure))
            return response
        }
        return redirect(to: Paths.signedInBrowsers, flash: \.browser_signed_out)
    }

    /// `POST /settings/browsers/end-others`: every browser but this one.
    func signedInBrowsersEndOthers(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let session = context.session else { throw HTTPError(.notFound) }
        try database.sessions.endOtherSessions(userID: user.storedID, keeping: session.storedID)
        return redirect(to: Paths.signedInBrowsers, flash: \.browsers_signed_out)
    }

    /// `POST /settings/calendar/renew`: a new private calendar address; the old one stops.
    func calendarRenew(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        try database.meetups.renewCalendarToken(userID: user.storedID)
        return redirect(to: Paths.signedInBrowsers, flash: \.calendar_renewed)
    }
}
