import Foundation
import HTTP
import Storage
import Testing
import Mail
import TestSupport
@testable import Web

/// Download my data: a zip made in the background for the member alone, of everything Moim
/// holds about them, as files a person can open, kept 7 days.
@Suite struct DataExportTests {
    /// Waits for the member's export to be ready (the page stops refreshing itself).
    private func waitForExport(_ browser: Browser) throws -> String {
        for _ in 0..<100 {
            let page = browser.get("/settings/export")
            if page.headers["Refresh"] == nil { return page.bodyText }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("the export was never ready")
        return ""
    }

    /// Each name in the zip and its content, read by Python's `zipfile` after checking the CRCs.
    private func unzip(_ bytes: [UInt8]) throws -> [String: String] {
        try JSONDecoder().decode([String: String].self, from: try pythonReadsZip(bytes, """
            import json, sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as z:
                assert z.testzip() is None
                print(json.dumps({i.filename: z.read(i).decode('utf-8', 'replace') for i in z.infolist()}))
            """))
    }

    @Test func aMemberDownloadsEverythingAsFilesAPersonCanOpen() throws {
        let site = try TestSite()
        let (mina, jun) = { let people = site.people("mina", "jun"); return (people[0], people[1]) }()
        #expect(mina.post("/settings", [("display_name", "Mina Kim"), ("birth_year", "1990"), ("job", "office")], from: "/settings").status != .internalServerError)
        let post = try #require(mina.postMultipart("/posts", [("body", "Sunrise, \"quoted\"")], files: [("photos", "run.jpg", try fixture("gps.jpg"))],
                                                   from: "/posts/new").headers["Location"])
        mina.post(post + "/comments", [("body", "Also, commas")], from: post)
        mina.post("/u/jun/follow", [], from: "/u/jun")
        jun.post("/u/mina/follow", [], from: "/u/mina")
        #expect(mina.postMultipart("/records", [("visibility", "public"), ("note", "Tempo")], files: [("gpx", "run.gpx", gpxFixture(steps: 60))],
                                   from: "/records/new").status == .seeOther)

        // Nothing yet: a button; no file for anyone
        #expect(mina.get("/settings/export").bodyText.contains(#"action="/settings/export""#))
        #expect(mina.get("/settings/export/download").status == .notFound)
        #expect(mina.post("/settings/export", [], from: "/settings/export").status == .seeOther)
        let ready = try waitForExport(mina)
        #expect(ready.contains(#"href="/settings/export/download""#) && ready.contains("kept until"))

        let download = mina.get("/settings/export/download")
        #expect(download.status == .ok && download.headers["Content-Type"] == "application/zip")
        #expect(download.headers["Content-Disposition"]?.hasPrefix("attachment; filename=\"moim-mina-") == true)
        #expect(download.headers["Cache-Control"] == "private, no-store")
        let files = try unzip(download.body)
        #expect(Set(files.keys).isSuperset(of: ["README.txt", "profile.json", "agreements.json", "posts.json", "comments.json", "messages.json",
                                                 "following.json", "followers.json", "crews.json", "meetupsJoined.json", "runs.json", "payments.csv"]))
        let profileText = try #require(files["profile.json"])
        let profile = try #require(try JSONSerialization.jsonObject(with: Data(profileText.utf8)) as? [[String: Any]])
        #expect(profile.first?["username"] as? String == "mina" && profile.first?["birthYear"] as? Int == 1990)
        #expect(files["agreements.json"]?.contains("\"version\" : 1") == true && files["agreements.json"]?.contains("privacy") == true)
        #expect(files["posts.json"]?.contains(#"Sunrise, \"quoted\""#) == true)
        #expect(files["following.json"]?.contains("jun") == true && files["followers.json"]?.contains("jun") == true)
        #expect(files.keys.contains { $0.hasPrefix("photos/") && $0.hasSuffix(".jpg") })
        let gpx = try #require(files.first { $0.key.hasPrefix("runs/") && $0.key.hasSuffix(".gpx") }?.value)
        #expect(gpx.contains("<trkpt lat=") && gpx.contains("<name>Tempo</name>"))
        #expect(files["payments.csv"] == "\r\n")

        // Jun's file is his own; he gets nothing of Mina's
        #expect(jun.get("/settings/export/download").status == .notFound)
        #expect(site.browser().get("/settings/export/download").status == .seeOther)
        // One at a time
        var replaced: String?
        let userID = try #require(try site.database.accounts.user(username: "jun")).storedID
        #expect(try site.database.accounts.requestDataExport(userID: userID, replaced: &replaced))
        #expect(jun.post("/settings/export", [], from: "/settings").status == .conflict)
    }

    @Test func aMailSaysTheFileIsReadyAndLinksToSettingsNotToTheFile() throws {
        let sink = try MailSink()
        var configuration = TestSite.configuration()
        configuration.baseURL = PublicURL("https://run.example.org")
        configuration.mail = MailConfiguration(server: SMTPServer(url: sink.url)!, from: MailAddress(name: "Moim", address: "moim@run.example.org"))
        let site = try TestSite(configuration: configuration)
        let mina = site.people("mina")[0]
        #expect(mina.post("/settings/export", [], from: "/settings/export").status == .seeOther)
        _ = try waitForExport(mina)
        try site.app.runMail()
        let mail = try #require(sink.waitForMessages(2).first { $0.subject.contains("Your data") })
        #expect(mail.recipient == "mina@example.com" && mail.html.contains("kept for 7 days"))
        #expect(mail.links.contains("https://run.example.org/settings/export") && !mail.links.contains { $0.contains("download") })
    }

    @Test func aFileIsKeptSevenDaysAndGoesWithItsMember() throws {
        let site = try TestSite()
        let mina = site.people("mina")[0]
        mina.post("/settings/export", [], from: "/settings/export")
        _ = try waitForExport(mina)
        #expect(mina.get("/settings/export/download").status == .ok)
        let media = site.app.configuration.mediaDirectory
        #expect(try FileManager.default.contentsOfDirectory(atPath: media).contains { $0.hasSuffix(".zip") })
        // Not served as media
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: media).first { $0.hasSuffix(".zip") })
        #expect(site.browser().get("/media/" + name).status == .notFound)
        try site.app.sweep(now: Date().addingTimeInterval(8 * 86_400))
        #expect(mina.get("/settings/export/download").status == .notFound)
        #expect(try !FileManager.default.contentsOfDirectory(atPath: media).contains { $0.hasSuffix(".zip") })

        // Deleting the account takes a kept file too
        mina.post("/settings/export", [], from: "/settings/export")
        _ = try waitForExport(mina)
        #expect(mina.post("/settings/delete", [("content", "keep"), ("password", "correct horse battery")], from: "/settings/delete").status == .seeOther)
        #expect(try !FileManager.default.contentsOfDirectory(atPath: media).contains { $0.hasSuffix(".zip") })
    }
}
