import Foundation
import HTTP
import Testing
@testable import Web

/// The staff area: one gate for every /admin route, whichever its method.
@Suite struct AdminPagesTests {
    @Test(arguments: ["/admin", "/admin/reports", "/admin/users", "/admin/users/mina", "/admin/log"])
    func adminPagesAreNotFoundForMembersAndVisitors(_ path: String) throws {
        let (site, admin, moderator, mina, _) = try TestSite.staffed()
        #expect(mina.get(path).status == .notFound)
        #expect(site.browser().get(path).status == .notFound)
        #expect(mina.post(path, [], from: "/").status == .notFound)
        #expect(admin.get(path).status == .ok)
        #expect(moderator.get(path).status == .ok)
    }

    @Test(arguments: ["/admin/moderate", "/admin/users/mina/sanction", "/admin/users/mina/role", "/admin/users/mina/messages"])
    func actionsAreNotPagesAndTheGateStillHidesThem(_ path: String) throws {
        // A staff member who opens an action's address learns it takes a form; anyone else, nothing
        let (site, admin, moderator, mina, _) = try TestSite.staffed()
        #expect(admin.get(path).status == .methodNotAllowed)
        #expect(moderator.get(path).status == .methodNotAllowed)
        #expect(mina.get(path).status == .notFound)
        #expect(site.browser().get(path).status == .notFound)
    }

    @Test func adminsMakeModeratorsAndModeratorsMakeNoOne() throws {
        let (_, admin, moderator, mina, jun) = try TestSite.staffed()
        // A moderator cannot hand out roles
        #expect(moderator.post("/admin/users/mina/role", [("role", "moderator")], from: "/admin/users/mina").status == .notFound)
        #expect(mina.get("/admin").status == .notFound)
        // An admin makes Mina a moderator: her sessions end, and once signed in again the staff area opens to her
        #expect(admin.post("/admin/users/mina/role", [("role", "moderator")], from: "/admin/users/mina").headers["Location"] == "/admin/users/mina")
        #expect(mina.get("/admin").status == .notFound)
        mina.logIn("mina")
        #expect(mina.get("/admin").status == .ok)
        // No one is made an admin this way, and an admin's own role stays
        #expect(admin.post("/admin/users/jun/role", [("role", "admin")], from: "/admin/users/jun").status == .badRequest)
        #expect(jun.get("/admin").status == .notFound)
        // And back to member
        #expect(admin.post("/admin/users/mina/role", [("role", "member")], from: "/admin/users/mina").status == .seeOther)
        #expect(mina.get("/admin").status == .notFound)
    }

    @Test func everyPaymentIsListedForStaffOnly() throws {
        let (site, admin, _, mina, _) = try TestSite.staffed()
        let page = admin.get("/admin/payments")
        #expect(page.status == .ok)
        #expect(page.bodyText.contains("<h1"))
        #expect(admin.get("/admin/payments?state=paid&before=1e400").status == .ok)
        #expect(admin.post("/admin/payments", [], from: "/admin/payments").status == .methodNotAllowed)
        #expect(mina.get("/admin/payments").status == .notFound)
        #expect(site.browser().post("/admin/payments", [], from: "/").status == .notFound)
    }
}
