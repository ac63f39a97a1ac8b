import Foundation
import Testing
import HTTP
import Storage
@testable import Web

@Suite struct ModerationTests {
    @Test func hiddenPostsShowOnlyToTheirAuthorAndStaff() throws {
        let (site, _, moderator, mina, jun) = try TestSite.staffed()
        let url = try #require(mina.post("/posts", [("body", "questionable post")], from: "/posts/new").headers["Location"])
        let id = try #require(Int64(url.split(separator: "/").last ?? ""))
        #expect(moderator.post("/admin/moderate", [("action", "hide"), ("target_type", "post"), ("target_id", String(id)), ("reason", "rule 3")], from: "/admin/reports").status == .seeOther)
        #expect(jun.get(url).status == .notFound)
        #expect(!jun.get("/explore").bodyText.contains("questionable post"))
        #expect(mina.get(url).bodyText.contains("Hidden by moderators"))
        #expect(moderator.get(url).status == .ok)
        moderator.post("/admin/moderate", [("action", "restore"), ("target_type", "post"), ("target_id", String(id)), ("reason", "")], from: "/admin/reports")
        #expect(jun.get(url).status == .ok)
        moderator.post("/admin/moderate", [("action", "delete"), ("target_type", "post"), ("target_id", String(id)), ("reason", "spam")], from: "/admin/reports")
        #expect(mina.get(url).status == .notFound)
        // Each action appears in the log exactly once.
        let log = try site.database.moderation.moderationLog()
        #expect(log.map(\.entry.action) == ["delete", "restore", "hide"])
        _ = site
    }

    @Test func reportsFromEnoughPeopleHideContentAndThePublicLogNamesNoReporter() throws {
        var configuration = TestSite.configuration()
        configuration.autoHideThreshold = 2
        let (site, admin, _, mina, jun) = try TestSite.staffed(configuration)
        let hana = site.members("hana_reporter")[0]
        let url = try #require(mina.post("/posts", [("body", "buy cheap shoes")], from: "/posts/new").headers["Location"])
        let id = String(url.split(separator: "/").last ?? "")
        let report = [("target_type", "post"), ("target_id", id), ("reason", "spam"), ("note", ""), ("return_to", "/")]
        #expect(jun.post("/reports", report, from: url).status == .seeOther)
        #expect(jun.post("/reports", report, from: url).status == .conflict)
        #expect(site.browser().get(url).status == .ok)
        // One report: counted in the singular, and the queue offers Hide, not Restore.
        let queue = admin.get("/admin/reports").bodyText
        #expect(queue.contains("1 report ·") && queue.contains(">Hide</button>") && !queue.contains(">Restore</button>"))
        #expect(hana.post("/reports", report, from: url).status == .seeOther)
        #expect(site.browser().get(url).status == .notFound)
        // Hidden by the second report: now Restore, not Hide.
        let hiddenQueue = admin.get("/admin/reports").bodyText
        #expect(hiddenQueue.contains("2 reports ·") && hiddenQueue.contains(">Restore</button>") && !hiddenQueue.contains(">Hide</button>"))
        let publicLog = site.browser().get("/moderation").bodyText
        #expect(publicLog.contains("Hidden automatically"))
        #expect(!publicLog.contains("jun") && !publicLog.contains("hana_reporter"))
    }

    @Test func suspensionEndsSessionsAndBlocksSignIn() throws {
        let (site, admin, moderator, mina, _) = try TestSite.staffed()
        #expect(mina.get("/settings").status == .ok)
        #expect(moderator.post("/admin/users/mina/sanction", [("action", "suspend"), ("reason", "harassment"), ("days", "7")], from: "/admin/users/mina").status == .seeOther)
        #expect(mina.get("/settings").status == .seeOther)
        let login = site.browser().logIn("mina")
        #expect(login.status == .forbidden)
        #expect(login.bodyText.contains("harassment"))
        // Moderators cannot act on admins.
        #expect(moderator.post("/admin/users/boss/sanction", [("action", "suspend"), ("reason", "coup")], from: "/admin/users/boss").status == .forbidden)
        #expect(admin.get("/settings").status == .ok)
    }

    @Test func warningsStayUntilRead() throws {
        let (_, _, moderator, mina, _) = try TestSite.staffed()
        moderator.post("/admin/users/mina/sanction", [("action", "warn"), ("reason", "Please be kind in comments.")], from: "/admin/users/mina")
        #expect(mina.get("/").bodyText.contains("Please be kind in comments."))
        mina.post("/warnings/ack", [("return_to", "/")], from: "/")
        #expect(!mina.get("/").bodyText.contains("Please be kind in comments."))
    }

    @Test func blockingHidesEachOthersContentBothWays() throws {
        let (_, _, _, mina, jun) = try TestSite.staffed()
        let minasPost = try #require(mina.post("/posts", [("body", "mina writes")], from: "/posts/new").headers["Location"])
        jun.post("/posts", [("body", "jun writes")], from: "/posts/new")
        #expect(jun.post("/u/mina/block", [], from: "/u/mina").status == .seeOther)
        #expect(!jun.get("/explore").bodyText.contains("mina writes"))
        #expect(!mina.get("/explore").bodyText.contains("jun writes"))
        #expect(jun.post(minasPost + "/comments", [("body", "hey")], from: "/explore").status != .seeOther)
        #expect(mina.post("/u/jun/follow", [], from: "/u/jun").status == .forbidden)
        jun.post("/u/mina/unblock", [], from: "/u/mina")
        #expect(jun.get("/explore").bodyText.contains("mina writes"))
    }
}

@Suite struct ReportPageTests {
    @Test func aCommentIsReportedFromItsOwnPage() throws {
        let site = try TestSite()
        let people = site.members("mina", "jun")
        let url = try #require(people[0].post("/posts", [("body", "hello")], from: "/posts/new").headers["Location"])
        people[0].post(url + "/comments", [("body", "rude words")], from: url)
        let link = try #require(people[1].get(url).bodyText.firstMatch(of: /href="(\/reports\/new\?[^"]+)"/)?.1)
        let page = people[1].get(String(link).replacingOccurrences(of: "&amp;", with: "&"))
        #expect(page.status == .ok)
        #expect(page.bodyText.contains("rude words"))
        let sent = people[1].post("/reports", [("target_type", "comment"), ("target_id", "1"), ("reason", "harassment"), ("note", ""),
                                               ("return_to", url)], from: String(link).replacingOccurrences(of: "&amp;", with: "&"))
        #expect(sent.status == .seeOther)
        #expect(try site.database.moderation.openReportCount() == 1)
    }
}
