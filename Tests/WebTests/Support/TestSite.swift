import Foundation
import HTTP
import Storage
import TestSupport
@testable import Web

/// The whole site over an in-memory database, with cheap password hashes.
struct TestSite {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    let app: App
    let database: AppDatabase
    /// Closes the database this site opened once the test lets go of the site: the app's
    /// routes hold the app, so it is never let go of itself, and on PostgreSQL its listening
    /// connection and idle ones would stay open until the whole run ends (a run of every test
    /// went past the cluster's 600 connections).
    private let closer: Closer?

    init(configuration: WebConfiguration = TestSite.configuration(), database: AppDatabase? = nil) throws {
        let opened = try database ?? TestDatabase.fresh()
        self.database = opened
        closer = database == nil && TestDatabase.onPostgres ? Closer(opened) : nil
        app = try App(database: opened, configuration: configuration)
        RouteLog.expect(app.router)
    }

    private final class Closer: Sendable {
        let database: AppDatabase
        init(_ database: AppDatabase) { self.database = database }
        deinit { try? database.close() }
    }

    /// The repository's templates and files, cheap hashes and a fresh media folder.
    static func configuration() -> WebConfiguration {
        var configuration = WebConfiguration()
        configuration.templatesDirectory = root + "/Templates"
        configuration.publicDirectory = root + "/Public"
        configuration.passwordStrength = .minimal
        configuration.mediaDirectory = NSTemporaryDirectory() + "moim-media-\(UUID().uuidString)"
        // Tests that are not about them should not trip the caps on new accounts, nor need
        // a staff member's one-time code (`TwoFactorTests` turn it on).
        configuration.newAccountLimits.days = 0
        configuration.requireStaffTwoFactor = false
        return configuration
    }

    /// A site with an admin (`boss`), a moderator (`moddy`) and two members, each signed in.
    static func staffed(_ configuration: WebConfiguration = TestSite.configuration()) throws -> (TestSite, admin: Browser, moderator: Browser, mina: Browser, jun: Browser) {
        let site = try TestSite(configuration: configuration)
        let people = site.members("boss", "moddy", "mina", "jun")
        _ = try site.database.accounts.setRole(.admin, username: "boss")
        _ = try site.database.accounts.setRole(.moderator, username: "moddy")
        people[0].logIn("boss")
        people[1].logIn("moddy")
        return (site, people[0], people[1], people[2], people[3])
    }

    func browser(language: String? = nil, address: String = "127.0.0.1") -> Browser {
        Browser(app: app, language: language, address: address)
    }

    /// One signed-up, signed-in browser per username, in order, each with the name as their
    /// display name ("mina" is Mina), for pages that tell people apart by name.
    func people(_ usernames: String...) -> [Browser] {
        usernames.map { name in
            let browser = browser()
            browser.signUp(username: name, displayName: name.capitalized)
            return browser
        }
    }

    /// One signed-up, signed-in browser per username, in order.
    func members(_ usernames: String...) -> [Browser] {
        usernames.map { name in
            let browser = browser()
            browser.signUp(username: name)
            return browser
        }
    }
}

/// Drives the router in-process the way a browser would: keeps cookies, sends the page's
/// CSRF token back with forms, and does not follow redirects unless asked.
final class Browser {
    let app: App
    let language: String?
    let address: String
    var cookies: [String: String] = [:]
    private(set) var lastSetCookies: [String] = []

    init(app: App, language: String?, address: String) {
        self.app = app
        self.language = language
        self.address = address
    }

    @discardableResult
    func get(_ target: String, headers: [(String, String)] = []) -> HTTPResponse {
        send(HTTPRequest(method: .get, target: target), headers: headers)
    }

    /// Posts `fields` with the CSRF token of the page at `from` (default: the same path).
    @discardableResult
    func post(_ target: String, _ fields: [(String, String)], from page: String? = nil, headers: [(String, String)] = []) -> HTTPResponse {
        let token = csrfToken(on: page ?? target)
        return post(target, fields + [("_csrf", token)], withoutToken: (), headers: headers)
    }

    @discardableResult
    func post(_ target: String, _ fields: [(String, String)], withoutToken: Void, headers: [(String, String)] = []) -> HTTPResponse {
        let body = fields.map { PercentEncoding.encode($0.0) + "=" + PercentEncoding.encode($0.1) }.joined(separator: "&")
        var request = HTTPRequest(method: .post, target: target, body: Array(body.utf8))
        request.headers.add("content-type", "application/x-www-form-urlencoded")
        return send(request, headers: headers)
    }

    /// Posts a `multipart/form-data` form with files (name, filename, bytes), with the CSRF
    /// token of the page at `from`.
    @discardableResult
    func postMultipart(_ target: String, _ fields: [(String, String)], files: [(String, String, [UInt8])], from page: String) -> HTTPResponse {
        let boundary = "----MoimTestBoundary7MA4YWxk"
        var body: [UInt8] = []
        for (name, value) in fields + [("_csrf", csrfToken(on: page))] {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        for (name, filename, bytes) in files {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
            body += bytes + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        var request = HTTPRequest(method: .post, target: target, body: body)
        request.headers.add("content-type", "multipart/form-data; boundary=\(boundary)")
        return send(request, headers: [])
    }

    /// Starts a free crew named `name` through the form, taking members by `policy`; its path
    /// (`/crews/dawn-runners`), or nil when the form refused it.
    func startCrew(_ name: String, policy: String = "open") -> String? {
        postMultipart("/crews", [
            ("name", name), ("sport", "running"), ("fee_amount", "0"), ("fee_currency", "KRW"), ("fee_period", "month"), ("join_policy", policy),
        ], files: [], from: "/crews/new").headers["Location"]
    }

    func csrfToken(on page: String) -> String {
        let html = get(page).bodyText
        guard let range = html.range(of: #"name="_csrf" value="([^"]+)""#, options: .regularExpression) else { return "" }
        return String(html[range].split(separator: "\"")[3])
    }

    private func send(_ base: HTTPRequest, headers: [(String, String)]) -> HTTPResponse {
        var request = base
        request.remoteAddress = address
        request.id = "test"
        request.headers.add("host", "moim.test")
        if let language { request.headers.add("accept-language", language) }
        if !cookies.isEmpty {
            request.headers.add("cookie", cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
        }
        // A test's own header replaces the default of that name (e.g. another Host).
        for (name, value) in headers { request.headers.set(name.lowercased(), value) }
        let response = app.handle(request)
        RouteLog.note(request.method, response.route)
        lastSetCookies = response.headers.values("Set-Cookie")
        for header in lastSetCookies {
            let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0]), value = pair.count > 1 ? String(pair[1]) : ""
            if header.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
        }
        return response
    }
}

extension Browser {
    /// Signs up with sensible defaults; returns the response to the POST.
    @discardableResult
    func signUp(
        username: String = "mina", email: String? = nil, password: String = "correct horse battery",
        displayName: String = "Mina Kim", extra: [(String, String)] = []
    ) -> HTTPResponse {
        post("/signup", [
            ("username", username), ("email", email ?? "\(username)@example.com"),
            ("password", password), ("password_confirmation", password), ("display_name", displayName),
        ] + Agreed.fields + extra)
    }

    @discardableResult
    func logIn(_ login: String, _ password: String = "correct horse battery") -> HTTPResponse {
        post("/login", [("login", login), ("password", password)])
    }

    func logOut() {
        post("/logout", [], from: "/")
    }
}

/// What a newcomer agrees to on a signup form, as a test site's first documents stand.
enum Agreed {
    static let fields = [("agree_terms", "yes"), ("agree_privacy", "yes"), ("age", "14plus"), ("terms_version", "1"), ("privacy_version", "1")]
    /// The same, to append to a URL-encoded body.
    static let query = fields.map { "&\($0.0)=\($0.1)" }.joined()
}
