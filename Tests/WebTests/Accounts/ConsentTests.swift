import Foundation
import HTTP
import Storage
import Testing
@testable import Web

/// A lawful signup: the terms and the use of personal data agreed to separately, each with
/// its version and time, 14 or older; the operator's documents in versions, and members asked
/// again on their next page when the terms or the privacy policy change.
@Suite struct ConsentTests {
    private let account = [("username", "sora"), ("email", "sora@example.com"), ("display_name", "Sora"),
                           ("password", "correct horse battery"), ("password_confirmation", "correct horse battery")]

    @Test func nothingIsStoredWithoutBothAgreementsAndAnAge() throws {
        let site = try TestSite()
        let bare = site.browser().post("/signup", account, from: "/signup")
        #expect(bare.status == .unprocessableContent)
        #expect(bare.bodyText.contains("Agree to the terms of use to join."))
        #expect(bare.bodyText.contains("Agree to the collection and use of your personal data to join."))
        #expect(bare.bodyText.contains("Say whether you are 14 or older."))
        // The form as a newcomer first sees it: nothing ticked beforehand, each with its text linked
        let form = site.browser().get("/signup").bodyText
        #expect(form.contains(#"name="agree_terms" value="yes" required>"#) && form.contains(#"name="agree_privacy" value="yes" required>"#))
        #expect(form.contains(#"href="/terms""#) && form.contains(#"href="/privacy""#))

        // One agreement is not the other
        let termsOnly = site.browser().post("/signup", account + [("agree_terms", "yes"), ("terms_version", "1"), ("age", "14plus")], from: "/signup")
        #expect(termsOnly.status == .unprocessableContent && termsOnly.bodyText.contains("personal data to join"))
        // Forged answers are no agreement
        let forged = site.browser().post("/signup", account + [("agree_terms", "on"), ("agree_privacy", "1"), ("age", "adult")], from: "/signup")
        #expect(forged.status == .unprocessableContent)
        #expect(try site.database.accounts.userCount() == 0)
    }

    @Test func underFourteenIsRefusedWithAClearPageAndNothingKept() throws {
        let site = try TestSite()
        let young = site.browser().post("/signup", account + [("agree_terms", "yes"), ("agree_privacy", "yes"), ("age", "under14"),
                                                              ("terms_version", "1"), ("privacy_version", "1")], from: "/signup")
        #expect(young.status == .forbidden)
        #expect(young.bodyText.contains("Moim is for ages 14 and up") && young.bodyText.contains("Nothing you typed was kept."))
        #expect(!young.bodyText.contains("sora@example.com"))
        // A birth year under 14 years ago, or over 120, is refused too
        let thisYear = Calendar(identifier: .gregorian).component(.year, from: Date())
        for year in [thisYear - 13, thisYear - 121, thisYear] {
            let answer = site.browser().post("/signup", account + Agreed.fields + [("birth_year", String(year))], from: "/signup")
            #expect(answer.status == .unprocessableContent && answer.bodyText.contains("Enter the year you were born, from \(thisYear - 120) to \(thisYear - 14)."))
        }
        #expect(try site.database.accounts.userCount() == 0)
    }

    @Test func eachAgreementIsStoredWithItsVersionAndTime() throws {
        let site = try TestSite()
        let before = Date()
        let joined = site.browser().post("/signup", account + Agreed.fields + [("marketing", "yes"), ("birth_year", "1990")], from: "/signup")
        #expect(joined.status == .seeOther)
        let sora = try #require(try site.database.accounts.user(username: "sora"))
        #expect(sora.termsVersion == 1 && sora.privacyVersion == 1 && sora.marketingSince != nil)
        let agreements = try site.database.accounts.agreements(userID: sora.storedID)
        #expect(Set(agreements.map { "\($0.kind) \($0.version)" }) == ["terms 1", "privacy 1", "age 0"])
        #expect(agreements.allSatisfy { $0.agreedAt >= before.addingTimeInterval(-1) && $0.agreedAt <= Date() })
        // Marketing is a choice, not a condition
        #expect(site.browser().signUp(username: "jun").status == .seeOther)
        #expect(try site.database.accounts.user(username: "jun")?.marketingSince == nil)
        // …and taken back, or given later, from settings
        let sorasSettings = site.browser()
        sorasSettings.logIn("sora")
        #expect(sorasSettings.get("/settings").bodyText.contains(#"name="marketing" value="yes" checked"#))
        #expect(sorasSettings.post("/settings/marketing", [], from: "/settings").status == .seeOther)
        #expect(try site.database.accounts.user(username: "sora")?.marketingSince == nil)
        #expect(!sorasSettings.get("/settings").bodyText.contains(#"name="marketing" value="yes" checked"#))
    }

    @Test func aDocumentPublishedWhileTheFormWasOpenIsReadBeforeItIsAgreedTo() throws {
        let site = try TestSite()
        _ = try site.database.accounts.publishDocument(.terms, body: "## New terms\n\nRun kindly.")
        site.app.documentVersions.forget()
        let stale = site.browser().post("/signup", account + Agreed.fields, from: "/signup")
        #expect(stale.status == .unprocessableContent && stale.bodyText.contains("This document changed while the form was open."))
        #expect(stale.bodyText.contains(#"name="terms_version" value="2""#))
        #expect(try site.database.accounts.userCount() == 0)
    }

    @Test func newTermsAreAgreedToOnTheNextPageBeforeAnythingElse() throws {
        let (site, admin, _, mina, _) = try TestSite.staffed()
        #expect(mina.get("/settings").status == .ok)
        // The admin publishes new terms; the old version stays readable
        let published = admin.post("/admin/documents/terms/versions", [("body", "## Terms, version two\n\nBe kind on the track.")], from: "/admin/documents/terms")
        #expect(published.status == .seeOther)
        let terms = site.browser().get("/terms").bodyText
        #expect(terms.contains("<h2>Terms, version two</h2>") && terms.contains("Version 2, published"))
        let first = site.browser().get("/terms?version=1")
        #expect(first.status == .ok && first.bodyText.contains("This is an earlier version.") && first.bodyText.contains("이용약관"))
        #expect(site.browser().get("/terms?version=9").status == .notFound)
        #expect(site.browser().get("/terms?version=1e400").status == .notFound)

        // Mina's next page, and her next form, ask her first; nothing of the form is done
        let next = mina.get("/crews?sport=running")
        #expect(next.status == .seeOther && next.headers["Location"] == "/agreements?return_to=%2Fcrews%3Fsport%3Drunning")
        let posting = mina.post("/posts", [("body", "Before agreeing")], from: "/terms")
        #expect(posting.status == .seeOther && posting.headers["Location"]?.hasPrefix("/agreements") == true)
        let page = mina.get("/agreements?return_to=%2Fcrews%3Fsport%3Drunning")
        #expect(page.status == .ok && page.bodyText.contains(#"name="terms_version" value="2""#))
        #expect(!page.bodyText.contains(#"name="agree_privacy""#), "only what changed is asked again")
        // The documents, leaving, and deleting the account stay open
        #expect(mina.get("/terms").status == .ok)

        let refused = mina.post("/agreements", [("return_to", "/crews")], from: "/agreements")
        #expect(refused.status == .unprocessableContent)
        let agreed = mina.post("/agreements", [("agree_terms", "yes"), ("terms_version", "2"), ("return_to", "/crews?sport=running")], from: "/agreements")
        #expect(agreed.status == .seeOther && agreed.headers["Location"] == "/crews?sport=running")
        #expect(mina.get("/crews").status == .ok)
        let stored = try #require(try site.database.accounts.user(username: "mina"))
        #expect(stored.termsVersion == 2)
        #expect(try site.database.accounts.agreements(userID: stored.storedID).contains { $0.kind == "terms" && $0.version == 2 })
        // An agreement sent to another site is not taken
        #expect(mina.post("/agreements", [("agree_terms", "yes")], withoutToken: ()).status == .forbidden)
    }

    @Test func documentsAreMarkdownAnAdminPublishesAndNothingThatRuns() throws {
        let (site, admin, moderator, mina, _) = try TestSite.staffed()
        #expect(admin.get("/admin/documents").bodyText.contains("/admin/documents/privacy#editor"))
        #expect(admin.get("/admin/documents/privacy").bodyText.contains("개인정보 수집·이용 동의"))
        #expect(admin.post("/admin/documents", [], from: "/admin/documents").status == .methodNotAllowed)
        #expect(admin.post("/admin/documents/privacy", [], from: "/admin/documents").status == .methodNotAllowed)
        #expect(admin.get("/admin/documents/privacy/versions").status == .methodNotAllowed)
        #expect(admin.get("/admin/documents/cookies").status == .notFound)
        for hostile in ["<script>alert(1)</script>", "Read [this](javascript:alert(1))", "<iframe src=//evil.example></iframe>", "ok <img src=x onerror=alert(1)>"] {
            let answer = admin.post("/admin/documents/privacy/versions", [("body", hostile)], from: "/admin/documents/privacy")
            #expect(answer.status == .unprocessableContent && answer.bodyText.contains("HTML such as &lt;script&gt;"))
        }
        #expect(admin.post("/admin/documents/privacy/versions", [("body", "  ")], from: "/admin/documents/privacy").status == .unprocessableContent)
        #expect(admin.post("/admin/documents/privacy/versions", [("body", String(repeating: "a", count: 100_001))], from: "/admin/documents/privacy").status
            == .unprocessableContent)
        // Moderators and members cannot
        #expect(moderator.post("/admin/documents/privacy/versions", [("body", "Mine now")], from: "/").status == .notFound)
        #expect(mina.post("/admin/documents/privacy/versions", [("body", "Mine now")], from: "/").status == .notFound)
        #expect(try site.database.accounts.documentVersions() == DocumentVersions(terms: 1, privacy: 1, refunds: 1))
        // A new refund policy asks nobody again
        #expect(admin.post("/admin/documents/refunds/versions", [("body", "Refunds within 7 days.")], from: "/admin/documents/refunds").status == .seeOther)
        #expect(mina.get("/crews").status == .ok)
        #expect(site.browser().get("/refunds").bodyText.contains("Refunds within 7 days."))
    }

    @Test func everyPageLinksTheDocumentsAndShowsTheBusinessDetailsGiven() throws {
        var configuration = TestSite.configuration()
        var business = BusinessDetails()
        business.name = "주식회사 모임 <b>"
        business.registration = "123-45-67890"
        business.mailOrder = "2026-서울강남-01234"
        configuration.business = business
        let site = try TestSite(configuration: configuration)
        for path in ["/", "/login", "/crews", "/terms", "/privacy"] {
            let page = site.browser().get(path).bodyText
            #expect(page.contains(#"<a href="/terms">Terms of use</a>"#) && page.contains(#"href="/privacy""#) && page.contains(#"href="/refunds""#))
            #expect(page.contains("<dt>Business registration no.</dt><dd>123-45-67890</dd>") && page.contains("주식회사 모임 &lt;b&gt;"))
            #expect(!page.contains("<dt>Address</dt>"), "a detail not given is left out")
        }
        // Without details, no empty list
        #expect(!(try TestSite()).browser().get("/").bodyText.contains(#"class="business""#))
    }
}
