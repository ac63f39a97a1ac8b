import Testing
import HTTP
import Storage
@testable import Web

@Suite struct ErrorPageTests {
    @Test func unknownPagesGetA404ThatLooksLikeTheSite() throws {
        let site = try TestSite()
        let response = site.browser().get("/no/such/page")
        #expect(response.status == .notFound)
        #expect(response.bodyText.contains("Page not found"))
        #expect(response.bodyText.contains("class=\"site-header\""))
    }

    /// A refusal of storage that no handler caught is still the page of its rule: a rule of
    /// the schema (CHECK, UNIQUE, a foreign key) that refused a write is a 422 for the form,
    /// and only an unreachable database is a 5xx (503, to retry).
    @Test func storageRefusalsNoHandlerCaughtAreNeverA500() throws {
        let site = try TestSite()
        let request = HTTPRequest(method: .post, target: "/posts", body: [])
        let refusals: [StorageError] = [.usernameTaken, .emailTaken, .notFound, .forbidden, .full, .duplicate, .wrongInviteCode,
                                        .ownerCannotLeave, .slugTaken, .locked, .rejected]
        for refusal in refusals {
            #expect(site.app.errorResponse(refusal, request: request, context: nil).status.code < 500, "\(refusal)")
        }
        #expect(site.app.errorResponse(StorageError.rejected, request: request, context: nil).status == .unprocessableContent)
        #expect(site.app.errorResponse(StorageError.unavailable, request: request, context: nil).status == .serviceUnavailable)
    }

    @Test func unknownMembersGetA404() throws {
        let site = try TestSite()
        #expect(site.browser().get("/u/nobody").status == .notFound)
    }

    @Test func aWrongMethodGets405WithAllow() throws {
        let site = try TestSite()
        let response = site.browser().post("/u/mina", [], withoutToken: ())
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD")
    }

    // A body that is not a form carries no CSRF token: refused before anything else.
    @Test func aNonFormPostIsRefusedAsAForgery() throws {
        let site = try TestSite()
        var request = HTTPRequest(method: .post, target: "/login", body: Array("{}".utf8))
        request.headers.add("content-type", "application/json")
        request.headers.add("host", "moim.test")
        #expect(site.app.handle(request).status == .forbidden)
    }

    @Test func staticFilesAreServed() throws {
        let site = try TestSite()
        let css = site.browser().get("/css/moim.css")
        #expect(css.status == .ok)
        #expect(css.headers["Content-Type"] == "text/css; charset=utf-8")
        #expect(css.headers["ETag"] != nil)
        // Browsers ask for /favicon.ico whatever the page links to.
        let icon = site.browser().get("/favicon.ico")
        #expect(icon.status == .ok && icon.headers["Content-Type"] == "image/x-icon")
        #expect(icon.body.prefix(4) == [0, 0, 1, 0])
    }

    @Test func healthCheckSaysOK() throws {
        let site = try TestSite()
        #expect(site.browser().get("/healthz").bodyText == "ok")
    }
}

@Suite struct ErrorPageFormTests {
    @Test func aVisitorLandingOnA404CanStillSwitchLanguage() throws {
        let site = try TestSite()
        let browser = site.browser()
        let page = browser.get("/missing")
        #expect(page.status == .notFound)
        #expect(browser.cookies["moim_csrf"] != nil)
        let switched = browser.post("/language", [("language", "ko"), ("return_to", "/missing")], from: "/missing")
        #expect(switched.status == .seeOther)
    }
}
