import Foundation
import HTTP
import Network
@testable import Storage
import Testing
import TestSupport
@testable import Web

/// Signing in through a real OpenID Connect provider on loopback (oidc-provider-mock, started
/// by `Tests/Doubles/oidc-provider`): the browser's way there and back, newcomers, linking, and the answers
/// that must be refused.
@Suite(.serialized) struct ProviderSignInTests {
    final class Provider {
        let issuer: String
        private let folder = NSTemporaryDirectory() + "moim-oidc-\(UUID().uuidString)"

        init(users: [String]) throws {
            issuer = try runTool(TestSite.root + "/Tests/Doubles/oidc-provider", ["start", folder] + users, timeout: 300).output
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }

        deinit { _ = try? runTool(TestSite.root + "/Tests/Doubles/oidc-provider", ["stop", folder]) }

        /// The HTTP status of the provider's answer to Moim's client using `refreshToken`:
        /// 200 while the grant stands, 400 once it was revoked.
        func refresh(_ refreshToken: String) throws -> String {
            try runTool("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "moim:secret", "--data-urlencode", "grant_type=refresh_token",
                                          "--data-urlencode", "refresh_token=\(refreshToken)", issuer + "/oauth2/token"]).output
        }

        /// The member at the provider's page picks `subject` (or denies): where the provider
        /// sends the browser back.
        func answer(_ authorizeURL: String, subject: String?) throws -> String {
            let fields = subject.map { ["--data-urlencode", "sub=\($0)"] } ?? ["--data-urlencode", "action=deny"]
            return try runTool("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{redirect_url}", "-X", "POST"] + fields + [authorizeURL]).output
        }
    }

    static let mina = #"{"sub":"mina-at-club","email":"mina@club.example","email_verified":true,"name":"Mina Kim"}"#
    static let unverified = #"{"sub":"jun-at-club","email":"jun@club.example","email_verified":false,"name":"Jun"}"#

    let provider: Provider
    let site: TestSite

    init() throws {
        provider = try Provider(users: [Self.mina, Self.unverified])
        var configuration = TestSite.configuration()
        configuration.baseURL = PublicURL("http://moim.test")
        configuration.providers = [.init(id: "oidc", name: "Club SSO", issuer: provider.issuer, clientID: "moim", clientSecret: .fixed("secret"))]
        site = try TestSite(configuration: configuration)
    }

    /// Button → provider → back: the site's answer to the provider's redirect.
    func signIn(_ browser: Browser, as subject: String?, start: String = "/auth/oidc") throws -> HTTPResponse {
        let started = browser.get(start)
        #expect(started.status == .found)
        let authorize = try #require(started.headers["Location"])
        #expect(authorize.hasPrefix(provider.issuer + "/oauth2/authorize?"))
        #expect(authorize.contains("code_challenge_method=S256") && authorize.contains("nonce=") && authorize.contains("state="))
        let back = try provider.answer(authorize, subject: subject)
        #expect(back.hasPrefix("http://moim.test/auth/oidc/callback?"))
        return browser.get(String(back.dropFirst("http://moim.test".count)))
    }

    @Test func aNewcomerSignsUpWithTheProviderAndComesBackWithOneClick() throws {
        let browser = site.browser()
        #expect(browser.get("/login").bodyText.contains(#"href="/auth/oidc""#))
        #expect(browser.get("/signup").bodyText.contains(#"href="/auth/oidc""#))
        let back = try signIn(browser, as: "mina-at-club", start: "/auth/oidc?next=%2Fcrews")
        #expect(back.status == .seeOther && back.headers["Location"] == "/signup/provider")
        let form = browser.get("/signup/provider").bodyText
        #expect(form.contains(#"value="mina""#), "a username suggested from the verified address")
        #expect(form.contains("mina@club.example") && form.contains("Club SSO"))
        let created = browser.post("/signup/provider", [("username", "mina"), ("display_name", "Mina Kim")] + Agreed.fields)
        #expect(created.status == .seeOther && created.headers["Location"] == "/crews", "on to where she was going")
        #expect(browser.get("/settings").bodyText.contains("mina@club.example"))

        // Another browser: the provider alone signs her in, to where she was going.
        let later = site.browser()
        let again = try signIn(later, as: "mina-at-club", start: "/auth/oidc?next=%2Fmeetups")
        #expect(again.status == .seeOther && again.headers["Location"] == "/meetups")
        #expect(later.get("/settings").status == .ok)
        // No password was ever set: the password form cannot sign in as her.
        #expect(site.browser().logIn("mina", "").status == .unprocessableContent)
        #expect(site.browser().logIn("mina", "correct horse battery").bodyText.contains("form-error"))
    }

    /// Naver speaks OAuth 2, not OpenID Connect: the code is traded at the token endpoint (the
    /// provider's here) and the member read from the profile endpoint with the access token
    /// (Naver's answer, served by nginx only to a bearer of a token).
    @Test func naverSignsInThroughItsProfileAndItsAddressIsNeverTakenAsVerified() throws {
        let profiles = try TileServer(locations: #"""
            location = /v1/nid/me {
                default_type application/json;
                if ($http_authorization !~ "^Bearer [!-~]+$") { return 401 '{"resultcode":"024","message":"Authentication failed"}'; }
                return 200 '{"resultcode":"00","message":"success","response":{"id":"naver-4711","email":"mina@naver.com","nickname":"mina_runs","name":"Mina Kim"}}';
            }
            """#)
        var configuration = TestSite.configuration()
        configuration.baseURL = PublicURL("http://moim.test")
        var naver = OpenIDProvider.Configuration(id: "naver", name: "Naver", issuer: "https://nid.naver.com", clientID: "moim", clientSecret: .fixed("secret"))
        naver.oauth = .init(authorization: provider.issuer + "/oauth2/authorize", token: provider.issuer + "/oauth2/token",
                            profile: "http://127.0.0.1:\(profiles.port)/v1/nid/me", reading: .naver)
        configuration.providers = [naver]
        let site = try TestSite(configuration: configuration)

        let browser = site.browser()
        #expect(browser.get("/login").bodyText.contains("provider-naver"))
        let started = browser.get("/auth/naver")
        let authorize = try #require(started.headers["Location"])
        #expect(authorize.hasPrefix(provider.issuer + "/oauth2/authorize?") && authorize.contains("state=") && !authorize.contains("nonce="))
        // Naver takes no scope; the mock fails without one (a TypeError of its own), so it gets one.
        let back = try provider.answer(authorize + "&scope=profile", subject: "mina-at-club")
        #expect(back.hasPrefix("http://moim.test/auth/naver/callback?"))
        let callback = String(back.dropFirst("http://moim.test".count))
        let answer = browser.get(callback)
        #expect(answer.status == .seeOther && answer.headers["Location"] == "/signup/provider")
        let form = browser.get("/signup/provider").bodyText
        #expect(form.contains("Naver") && !form.contains("mina@naver.com"), "Naver does not say the address is verified")
        let created = browser.post("/signup/provider", [("username", "mina"), ("display_name", "Mina Kim"), ("email", "mina@example.com")] + Agreed.fields)
        #expect(created.status == .seeOther)
        #expect(try site.database.accounts.user(provider: "naver", subject: "naver-4711")?.username == "mina")
        #expect(profiles.requests.contains("/v1/nid/me"))
        // The answer works once, and only in the browser that asked.
        #expect(browser.get(callback).status == .badRequest)
        #expect(site.browser().get(callback).status == .badRequest)
    }

    @Test func answersThatAreNotThisBrowsersOrAreUsedTwiceAreRefused() throws {
        let browser = site.browser()
        let started = browser.get("/auth/oidc")
        let back = try provider.answer(try #require(started.headers["Location"]), subject: "mina-at-club")
        let path = String(back.dropFirst("http://moim.test".count))
        // Another browser cannot finish this sign-in (login CSRF): it lacks the state cookie.
        #expect(site.browser().get(path).status == .badRequest)
        // A changed state is refused, and so is the same answer a second time.
        #expect(browser.get(path.replacingOccurrences(of: "state=", with: "state=x")).status == .badRequest)
        #expect(browser.get(path).status == .seeOther)
        #expect(browser.get(path).status == .badRequest)
        // Cancelled at the provider: back to the login page.
        let denied = try signIn(site.browser(), as: nil)
        #expect(denied.status == .seeOther && denied.headers["Location"] == "/login")
    }

    @Test func anAnswerThatTheProviderPostsSignsInAsOneItRedirects() throws {
        // Given an answer sent back as a form (Apple's `form_post`) rather than in the address
        let browser = site.browser()
        let started = browser.get("/auth/oidc")
        let location = try #require(started.headers["Location"])
        let back = try #require(URLComponents(string: try provider.answer(location, subject: "posted-runner")))
        let fields = (back.queryItems ?? []).map { ($0.name, $0.value ?? "") }
        // Then another browser cannot use it, and this one goes on to pick a username
        #expect(site.browser().post(back.path, fields, withoutToken: ()).status == .badRequest)
        let answer = browser.post(back.path, fields, withoutToken: ())
        #expect(answer.status == .seeOther)
        #expect(answer.headers["Location"] == "/signup/provider")
        #expect(browser.post("/auth/nowhere/callback", fields, withoutToken: ()).status == .notFound)
    }

    @Test func theReturnAddressNeverLeavesTheSite() throws {
        let browser = site.browser()
        _ = try signIn(browser, as: "mina-at-club")
        browser.post("/signup/provider", [("username", "mina"), ("display_name", "Mina")] + Agreed.fields)
        browser.logOut()
        for next in ["//evil.test", "https://evil.test", "/%5Cevil.test"] {
            let back = try signIn(browser, as: "mina-at-club", start: "/auth/oidc?next=" + PercentEncoding.encode(next))
            let location = try #require(back.headers["Location"])
            // A path on this site, as a browser reads it (backslashes count as slashes).
            #expect(location.hasPrefix("/") && !location.replacingOccurrences(of: "\\", with: "/").hasPrefix("//"))
            #expect(!location.contains("://"))
            browser.logOut()
        }
    }

    @Test func aMemberLinksTheProviderInSettingsAndAnAddressAloneLinksNothing() throws {
        // Jun has a password account; the provider knows an unverified jun@club.example.
        let jun = site.browser()
        jun.signUp(username: "jun", email: "jun@club.example")
        let newcomer = site.browser()
        #expect(try signIn(newcomer, as: "jun-at-club").headers["Location"] == "/signup/provider")
        // Unverified: the address is asked for, not offered; and an address already in use is refused.
        #expect(newcomer.get("/signup/provider").bodyText.contains(#"name="email""#))
        let taken = newcomer.post("/signup/provider", [("username", "jun2"), ("email", "jun@club.example"), ("display_name", "Jun")] + Agreed.fields)
        #expect(taken.status == .unprocessableContent)

        // Signed in with his password, Jun links the provider; then it signs him in.
        #expect(try signIn(jun, as: "jun-at-club", start: "/auth/oidc?link=1").headers["Location"] == "/settings")
        #expect(jun.get("/settings").bodyText.contains("/settings/providers/oidc/unlink"))
        let other = site.browser()
        let back = try signIn(other, as: "jun-at-club")
        #expect(back.headers["Location"] == "/")
        #expect(other.get("/settings").bodyText.contains("jun@club.example"))
        // He may unlink it: his password remains.
        #expect(jun.post("/settings/providers/oidc/unlink", [], from: "/settings").status == .seeOther)
        #expect(try signIn(site.browser(), as: "jun-at-club").headers["Location"] == "/signup/provider")
    }

    /// The refresh token the provider gave at the latest sign-in, as Moim keeps it.
    private func keptRefreshToken(_ subject: String) throws -> String? {
        try site.database.readRows { db in try db.value("SELECT refreshToken FROM identities WHERE subject = ?", [subject], as: String.self) }
    }

    /// Sign in with Apple asks that an app revokes its grant when the member deletes their
    /// account; Moim does it for any provider whose discovery names a revocation endpoint, and
    /// on unlinking too: the refresh token it kept stops working at the provider.
    @Test func deletingTheAccountOrUnlinkingRevokesTheGrantAtTheProvider() throws {
        let mina = site.browser()
        _ = try signIn(mina, as: "mina-at-club")
        mina.post("/signup/provider", [("username", "mina"), ("display_name", "Mina")] + Agreed.fields)
        let first = try #require(try keptRefreshToken("mina-at-club"))
        // A later sign-in's grant replaces the first.
        _ = try signIn(site.browser(), as: "mina-at-club")
        let latest = try #require(try keptRefreshToken("mina-at-club"))
        #expect(latest != first)
        #expect(try provider.refresh(latest) == "200", "the grant works at the provider")
        #expect(mina.post("/settings/delete", [("content", "keep")], from: "/settings/delete").status == .seeOther)
        #expect(try provider.refresh(latest) == "400", "and no longer once the account is deleted")

        let jun = site.browser()
        jun.signUp(username: "jun", email: "jun@club.example")
        _ = try signIn(jun, as: "jun-at-club", start: "/auth/oidc?link=1")
        let linked = try #require(try keptRefreshToken("jun-at-club"))
        #expect(try provider.refresh(linked) == "200")
        #expect(jun.post("/settings/providers/oidc/unlink", [], from: "/settings").status == .seeOther)
        #expect(try provider.refresh(linked) == "400", "unlinked, the grant is revoked too")
    }

    @Test func theOnlyWayInCannotBeUnlinked() throws {
        let browser = site.browser()
        _ = try signIn(browser, as: "mina-at-club")
        browser.post("/signup/provider", [("username", "mina"), ("display_name", "Mina")] + Agreed.fields)
        #expect(!browser.get("/settings").bodyText.contains("/settings/providers/oidc/unlink"))
        #expect(browser.post("/settings/providers/oidc/unlink", [], from: "/settings").status == .seeOther)
        #expect(try site.database.accounts.identities(userID: try #require(try site.database.accounts.user(username: "mina")?.id)) == ["oidc"])
        // She sets a first password (there is none to give), and then may unlink.
        #expect(!browser.get("/settings").bodyText.contains(#"name="current_password""#))
        let set = browser.post("/settings/password", [("new_password", "correct horse battery"), ("new_password_confirmation", "correct horse battery")],
                               from: "/settings")
        #expect(set.status == .seeOther)
        #expect(site.browser().logIn("mina").status == .seeOther)
        #expect(browser.get("/settings").bodyText.contains("/settings/providers/oidc/unlink"))
    }

    @Test func aProviderThatIsDownIsAClearPageNotAWait() throws {
        var configuration = TestSite.configuration()
        configuration.baseURL = PublicURL("http://moim.test")
        configuration.providers = [.init(id: "oidc", name: "Club SSO", issuer: "http://127.0.0.1:\(freeLoopbackPort())", clientID: "moim",
                                         clientSecret: .fixed("secret"))]
        let down = try TestSite(configuration: configuration)
        let started = Date()
        let answer = down.browser().get("/auth/oidc")
        #expect(answer.status == .serviceUnavailable)
        #expect(answer.bodyText.contains("Club SSO"))
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(down.browser().get("/auth/nobody").status == .notFound)
    }
}
