import Testing
import HTTP
import Storage
@testable import Web

@Suite struct SessionSecurityTests {
    @Test func aFormWithoutAValidTokenIsRefused() throws {
        let site = try TestSite()
        let browser = site.browser()
        browser.get("/signup")
        let missing = browser.post("/signup", [("username", "mina"), ("email", "m@example.com")], withoutToken: ())
        #expect(missing.status == .forbidden)
        let forged = browser.post("/signup", [("username", "mina"), ("_csrf", String(repeating: "A", count: 43))], withoutToken: ())
        #expect(forged.status == .forbidden)
        #expect(forged.bodyText.contains("This form has expired"))
        #expect(try site.database.accounts.userCount() == 0)
    }

    @Test func aFormPostedFromAnotherSiteIsRefused() throws {
        let site = try TestSite()
        let browser = site.browser()
        let response = browser.signUp(extra: []) // warms up the token
        #expect(response.status == .seeOther)
        let other = site.browser()
        let forged = other.post("/signup", [("username", "evil"), ("email", "e@example.com")], from: "/signup", headers: [("Origin", "https://evil.example")])
        #expect(forged.status == .forbidden)
    }

    @Test func theSessionCookieIsHttpOnlyLaxAndChangesAtLogin() throws {
        let site = try TestSite()
        let browser = site.browser()
        browser.signUp(username: "mina")
        let first = try #require(browser.cookies["moim_session"])
        let header = try #require(browser.lastSetCookies.first { $0.hasPrefix("moim_session=") })
        #expect(header.contains("HttpOnly"))
        #expect(header.contains("SameSite=Lax"))
        #expect(header.contains("Path=/"))

        // A token planted before login (session fixation) is replaced by a new one.
        let victim = site.browser()
        victim.cookies["moim_session"] = first
        victim.logOut()
        victim.cookies["moim_session"] = "planted-by-an-attacker-0000000000000000000"
        victim.logIn("mina")
        let second = try #require(victim.cookies["moim_session"])
        #expect(second != first && second != "planted-by-an-attacker-0000000000000000000")
        // The first browser's token ended with the logout.
        #expect(browser.get("/settings").status == .seeOther)
    }

    @Test func secureSitesUseHostPrefixedSecureCookies() throws {
        var configuration = TestSite.configuration()
        configuration.secureCookies = true
        let browser = try TestSite(configuration: configuration).browser()
        browser.signUp(username: "mina")
        let header = try #require(browser.lastSetCookies.first { $0.hasPrefix("__Host-moim_session=") })
        #expect(header.contains("Secure"))
    }

    @Test func wrongPasswordsAreLimitedPerAccountWith429() throws {
        let site = try TestSite()
        site.browser().signUp(username: "mina")
        let attacker = site.browser(address: "10.0.0.9")
        for _ in 0..<5 {
            let failed = attacker.logIn("mina", "wrong password here")
            #expect(failed.status == .unprocessableContent)
            #expect(failed.bodyText.contains("do not match"))
        }
        let limited = attacker.logIn("mina", "correct horse battery")
        #expect(limited.status == .tooManyRequests)
        #expect(Int(limited.headers["Retry-After"] ?? "") ?? 0 > 0)
    }

    @Test func wrongPasswordsAreLimitedPerAddressWith429() throws {
        let site = try TestSite()
        let attacker = site.browser(address: "10.0.0.10")
        for attempt in 0..<20 {
            #expect(attacker.logIn("user\(attempt)", "wrong password here").status == .unprocessableContent)
        }
        #expect(attacker.logIn("someone", "wrong password here").status == .tooManyRequests)
    }

    @Test func pagesCarryTheSecurityHeaders() throws {
        let site = try TestSite()
        let response = site.browser().get("/login")
        #expect(response.headers["Content-Security-Policy"]?.contains("frame-ancestors 'none'") == true)
        #expect(response.headers["Content-Security-Policy"]?.contains("script-src 'self'") == true)
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(response.headers["Referrer-Policy"] == "same-origin")
    }

    @Test func loginRedirectsOnlyToLocalPaths() throws {
        let site = try TestSite()
        site.browser().signUp(username: "mina")
        let browser = site.browser()
        let response = browser.post("/login", [("login", "mina"), ("password", "correct horse battery"), ("next", "//evil.example/")])
        #expect(response.headers["Location"] == "/")
        browser.logOut()
        let back = browser.post("/login", [("login", "mina"), ("password", "correct horse battery"), ("next", "/settings")])
        #expect(back.headers["Location"] == "/settings")
    }
}
