import HTTP
import Storage

/// Every URL the site links to, in one place. Users bookmark these: keep them stable.
enum Paths {
    static let home = "/"
    static let signup = "/signup"
    static let login = "/login"
    static let logout = "/logout"
    static let settings = "/settings"
    static let settingsPassword = "/settings/password"
    static let twoFactorSettings = "/settings/two-factor"
    static let twoFactorCheck = "/two-factor"
    /// Agreeing to new versions of the terms or the privacy policy.
    static let agreements = "/agreements"
    static func document(_ kind: SiteDocument.Kind) -> String { "/" + kind.rawValue }
    static let deleteAccount = "/settings/delete"
    static let dataExport = "/settings/export"
    static let signedInBrowsers = "/settings/browsers"
    static let passkeys = "/settings/passkeys"
    static let forgotPassword = "/password/forgot"
    static func passwordReset(_ token: String) -> String { "/password/reset/" + token }
    static func verifyEmail(_ token: String) -> String { "/email/verify/" + token }
    static func unsubscribe(_ token: String, list: MailSettings.List) -> String { "/unsubscribe/\(token)?list=\(list.rawValue)" }
    static let language = "/language"
    static func providerStart(_ id: String) -> String { "/auth/" + id }
    static func providerCallback(_ id: String) -> String { "/auth/\(id)/callback" }
    /// A newcomer from a provider picks a username.
    static let providerSignup = "/signup/provider"
    static let search = "/search"
    static let searchSuggestions = "/search/suggest"

    static let newPost = "/posts/new"
    /// A signed-in browser's event stream.
    static let events = "/events"
    static let crews = "/crews"
    static let meetups = "/meetups"
    static let newMeetup = "/meetups/new"

    static func meetup(_ id: Int64) -> String { "/meetups/\(id)" }
    static func meetupRetro(_ id: Int64) -> String { meetup(id) + "/retro" }
    static let newCrew = "/crews/new"

    static func crew(_ slug: String) -> String { "/crews/" + slug }
    /// The link staff share: the crew's page with its invite code filled in.
    static func crewInvite(_ slug: String, code: String) -> String { crew(slug) + "?code=" + PercentEncoding.encode(code) }
    static func crewMembers(_ slug: String) -> String { crew(slug) + "/members" }
    static func crewMeetups(_ slug: String) -> String { crew(slug) + "/meetups" }
    static func crewCalendar(_ slug: String) -> String { crew(slug) + "/calendar.ics" }
    static func crewLedger(_ slug: String) -> String { crew(slug) + "/ledger" }
    static func crewPay(_ slug: String) -> String { crew(slug) + "/pay" }
    static func crewNotice(_ slug: String, _ id: Int64) -> String { crew(slug) + "/notices/\(id)" }
    static func payment(_ publicID: String) -> String { "/payments/" + publicID }
    static func paymentWindow(_ publicID: String) -> String { payment(publicID) + "/pay" }
    static func paymentReturn(_ publicID: String) -> String { payment(publicID) + "/return" }
    static let settingsPayments = "/settings/payments"
    static let pushSettings = "/settings/notifications"
    static let explore = "/explore"
    static let bookmarks = "/bookmarks"
    static let notifications = "/notifications"

    static func post(_ id: Int64) -> String { "/posts/\(id)" }
    static func comment(_ id: Int64, post: Int64) -> String { "/posts/\(post)#comment-\(id)" }
    static func media(_ name: String) -> String { "/media/" + name }
    static func record(_ id: Int64) -> String { "/records/\(id)" }
    static let recordNew = "/records/new"
    /// A map to pick the point of a near search on.
    static let near = "/near"
    static func tile(z: Int, x: Int, y: Int) -> String { "/tiles/\(z)/\(x)/\(y)" }
    static func retro(_ retro: Retro, crew slug: String) -> String { crew(slug) + "/retros/\(retro.id ?? 0)" }
    static func adminUser(_ username: String) -> String { "/admin/users/" + PercentEncoding.encode(username) }
    static func tag(_ tag: String) -> String { "/tags/" + PercentEncoding.encode(tag) }
    static func tagFeed(_ name: String) -> String { tag(name) + "/feed.atom" }
    static func userFeed(_ username: String) -> String { profile(username) + "/feed.atom" }
    static func followers(_ username: String) -> String { profile(username) + "/followers" }
    static let talk = "/talk"
    static let talkNew = "/talk/new"
    static func talkRoom(_ id: Int64) -> String { "/talk/\(id)" }
    static func talkMessage(_ id: Int64) -> String { "/talk/messages/\(id)" }
    /// The report form for one thing, back to `returnTo` once sent.
    static func reportNew(_ target: ModerationTarget, _ id: Int64, returnTo: String) -> String {
        "/reports/new?target_type=\(target.rawValue)&target_id=\(id)&return_to=" + PercentEncoding.encode(returnTo)
    }
    static func talkWith(_ username: String) -> String { profile(username) + "/talk" }
    static func following(_ username: String) -> String { profile(username) + "/following" }

    /// `path` with `?before=cursor`, for "Older posts" links.
    static func older(_ path: String, before cursor: Int64?) -> String? {
        guard let cursor else { return nil }
        return path + (path.contains("?") ? "&" : "?") + "before=\(cursor)"
    }

    static func profile(_ username: String) -> String {
        "/u/" + PercentEncoding.encode(username)
    }

    static func login(next: String) -> String {
        next == home ? login : login + "?next=" + PercentEncoding.encode(next)
    }

    static func signup(next: String) -> String {
        next == home ? signup : signup + "?next=" + PercentEncoding.encode(next)
    }

    /// `path` if it is a path on this site, else the home page: never redirect off-site.
    ///
    /// Browsers drop tabs and line breaks from a URL and read `\` as `/`, so `/\t/evil.test`
    /// and `/\\evil.test` both mean `//evil.test`, another site. Any control character,
    /// space or backslash therefore sends the visitor home; text beyond ASCII is
    /// percent-encoded so the `Location` header stays ASCII.
    static func local(_ path: String?) -> String {
        // Compared as bytes: as characters, "/" followed by a combining mark is not "/".
        guard let path, path.utf8.first == UInt8(ascii: "/"), !path.utf8.starts(with: "//".utf8), path.utf8.count <= 2048 else { return home }
        var result = ""
        for scalar in path.unicodeScalars {
            switch scalar.value {
            case 0...0x20, 0x7F, 0x5C: return home
            case 0x21...0x7E: result.unicodeScalars.append(scalar)
            default: result += PercentEncoding.encode(String(scalar))
            }
        }
        return result
    }
}
