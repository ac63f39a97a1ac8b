import Foundation
import Formats
import HTTP
import Network
import Storage
import Testing
@testable import Web

/// Two-factor sign-in: set up with an app's first code, ten recovery codes shown once, each
/// code good once; staff pages open only after a code in the session.
@Suite struct TwoFactorTests {
    private func site() throws -> (TestSite, admin: Browser, mina: Browser) {
        var configuration = TestSite.configuration()
        configuration.requireStaffTwoFactor = true
        let (site, admin, _, mina, _) = try TestSite.staffed(configuration)
        return (site, admin, mina)
    }

    /// The code the member's app shows now for the secret on the settings page.
    private func currentCode(_ page: String, offset: Int64 = 0) throws -> String {
        let grouped = try #require(page.firstMatch(of: /<code class="secret">([A-Z2-7 ]+)<\/code>/)?.1)
        let secret = try #require(Base32.decode(String(grouped)))
        return OneTimeCode.code(secret: secret, counter: try #require(OneTimeCode.counter(at: Date())) + offset)
    }

    @Test func staffGiveACodeBeforeStaffPagesAndSetOneUpFirst() throws {
        let (site, admin, mina) = try site()
        // No codes yet: staff pages send the admin to set them up
        let first = admin.get("/admin/reports")
        #expect(first.status == .seeOther && first.headers["Location"] == "/settings/two-factor")
        #expect(admin.post("/admin/moderate", [("action", "dismiss"), ("target_type", "post"), ("target_id", "1")], from: "/").status == .seeOther)
        // A member who is not staff still finds nothing there
        #expect(mina.get("/admin").status == .notFound)

        // Set up: a secret to scan, a wrong code refused, the right one turns codes on
        #expect(admin.post("/settings/two-factor/setup", [], from: "/settings/two-factor").status == .seeOther)
        let setup = admin.get("/settings/two-factor").bodyText
        #expect(setup.contains(#"<svg class="qr""#))
        let wrong = admin.post("/settings/two-factor", [("code", "000000")], from: "/settings/two-factor")
        #expect(wrong.status == .unprocessableContent && wrong.bodyText.contains("That code did not work"))
        let on = admin.post("/settings/two-factor", [("code", try currentCode(setup))], from: "/settings/two-factor")
        #expect(on.status == .ok)
        let recovery = on.bodyText.matches(of: /<code>([a-z2-7]{4}-[a-z2-7]{4})<\/code>/).map { String($0.1) }
        #expect(recovery.count == 10 && Set(recovery).count == 10)
        // This session gave a code: staff pages open
        #expect(admin.get("/admin/reports").status == .ok)
        // Shown once: the settings page says how many are left, never the codes
        let settings = admin.get("/settings/two-factor").bodyText
        #expect(settings.contains("10 recovery codes left") && !settings.contains(recovery[0]))
        // Stored as hashes only
        let adminID = try #require(try site.database.accounts.user(username: "boss")?.id)
        #expect(try site.database.accounts.recoveryCodesLeft(userID: adminID) == 10)

        // A new sign-in asks again, and goes back where it was headed
        let again = site.browser()
        again.logIn("boss")
        let asked = again.get("/admin/users?q=mina")
        #expect(asked.status == .seeOther && asked.headers["Location"] == "/two-factor?return_to=%2Fadmin%2Fusers%3Fq%3Dmina")
        let page = again.get("/two-factor?return_to=%2Fadmin%2Fusers%3Fq%3Dmina")
        #expect(page.status == .ok && page.bodyText.contains("Confirm it is you"))
        // A recovery code works once, typed in any case, with or without the dash
        let used = again.post("/two-factor", [("code", recovery[0].uppercased().replacingOccurrences(of: "-", with: "")), ("return_to", "/admin/users?q=mina")], from: "/two-factor")
        #expect(used.status == .seeOther && used.headers["Location"] == "/admin/users?q=mina")
        #expect(again.get("/admin/users?q=mina").status == .ok)
        let third = site.browser()
        third.logIn("boss")
        #expect(third.post("/two-factor", [("code", recovery[0]), ("return_to", "/admin")], from: "/two-factor").status == .unprocessableContent)
        #expect(try site.database.accounts.recoveryCodesLeft(userID: adminID) == 9)
        // A return address elsewhere stays on this site
        let away = third.post("/two-factor", [("code", recovery[1]), ("return_to", "https://evil.example/")], from: "/two-factor")
        #expect(away.headers["Location"]?.hasPrefix("/") == true)
    }

    @Test func aCodeWorksOnceAndWrongOnesAreLimited() throws {
        let (site, admin, _) = try site()
        admin.post("/settings/two-factor/setup", [], from: "/settings/two-factor")
        let setup = admin.get("/settings/two-factor").bodyText
        // The step before, as a phone a little slow shows it, turns codes on
        #expect(admin.post("/settings/two-factor", [("code", try currentCode(setup, offset: -1))], from: "/settings/two-factor").status == .ok)
        // The same code again, in another session: refused (it was used); the next step's works
        let other = site.browser()
        other.logIn("boss")
        #expect(other.post("/two-factor", [("code", try currentCode(setup, offset: -1)), ("return_to", "/admin")], from: "/two-factor").status == .unprocessableContent)
        #expect(other.post("/two-factor", [("code", try currentCode(setup, offset: 1)), ("return_to", "/admin")], from: "/two-factor").status == .seeOther)
        // An older code after a newer one is refused too
        let late = site.browser()
        late.logIn("boss")
        #expect(late.post("/two-factor", [("code", try currentCode(setup)), ("return_to", "/admin")], from: "/two-factor").status == .unprocessableContent)
        // Five wrong codes in five minutes: 429, even for the right one
        for _ in 0..<3 { late.post("/two-factor", [("code", "123456"), ("return_to", "/admin")], from: "/two-factor") }
        let limited = late.post("/two-factor", [("code", "nonsense"), ("return_to", "/admin")], from: "/two-factor")
        #expect(limited.status == .tooManyRequests && limited.headers["Retry-After"] != nil)
        #expect(late.get("/admin").status == .seeOther)
        // Turning codes off needs a code: still on
        #expect(admin.post("/settings/two-factor/off", [("code", "")], from: "/settings/two-factor").status != .seeOther)
        let adminID = try #require(try site.database.accounts.user(username: "boss")?.id)
        #expect(try site.database.accounts.twoFactor(userID: adminID)?.isOn == true)
    }

    @Test func withTheFlagOffStaffPagesOpenAsBefore() throws {
        let (_, admin, _, _, _) = try TestSite.staffed()
        #expect(admin.get("/admin").status == .ok)
    }
}
