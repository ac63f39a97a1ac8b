import Formats
import Foundation
import HTTP
import Network
import Storage
import Testing
import TestSupport
@testable import Web

/// Passkeys through the site: added in settings, signing in without a username, counting as
/// staff's second factor; forged, replayed or borrowed answers refused with nothing changed.
@Suite struct PasskeyTests {
    private static let origin = "https://moim.example"

    private func site(requireStaffTwoFactor: Bool = false) throws -> (TestSite, admin: Browser, mina: Browser, jun: Browser) {
        var configuration = TestSite.configuration()
        configuration.baseURL = PublicURL(Self.origin)
        configuration.requireStaffTwoFactor = requireStaffTwoFactor
        let (site, admin, _, mina, jun) = try TestSite.staffed(configuration)
        return (site, admin, mina, jun)
    }

    /// The challenge in a JSON options answer.
    private func challenge(_ response: HTTPResponse) throws -> [UInt8] {
        #expect(response.status == .ok && response.headers["Content-Type"] == "application/json", "\(response.status.code)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        return try #require((json["challenge"] as? String).flatMap(Base64URL.decode))
    }

    @discardableResult
    private func register(_ browser: Browser, _ authenticator: SoftAuthenticator, name: String = "My phone") throws -> HTTPResponse {
        let options = try challenge(browser.post("/settings/passkeys/options", [], from: "/settings/passkeys"))
        let made = authenticator.registration(challenge: options, origin: Self.origin, rpID: "moim.example")
        return browser.post("/settings/passkeys", [("name", name), ("client_data", Base64URL.encode(made.clientData)),
                                                   ("attestation", Base64URL.encode(made.attestation))], from: "/settings/passkeys")
    }

    private func signInFields(_ browser: Browser, _ authenticator: SoftAuthenticator, origin: String = origin, rpID: String = "moim.example",
                              userHandle: String = "", next: String = "/crews") throws -> [(String, String)] {
        // The token of a page anyone may open (a signed-in member's /login redirects).
        let options = try challenge(browser.post("/login/passkey/options", [], from: "/terms"))
        let answer = authenticator.assertion(challenge: options, origin: origin, rpID: rpID)
        return [("credential_id", Base64URL.encode(authenticator.credentialID)), ("client_data", Base64URL.encode(answer.clientData)),
                ("authenticator_data", Base64URL.encode(answer.authenticatorData)), ("signature", Base64URL.encode(answer.signature)),
                ("user_handle", userHandle), ("next", next)]
    }

    @Test func aMemberAddsAPasskeyAndSignsInWithoutAUsername() throws {
        let (site, _, mina, _) = try site()
        let phone = SoftAuthenticator(.es256, signCount: 1)
        let page = mina.get("/settings/passkeys").bodyText
        #expect(page.contains(#"data-passkey="register""#) && page.contains("You have no passkeys yet."))
        let optionsBody = mina.post("/settings/passkeys/options", [], from: "/settings/passkeys").body
        let options = try #require(try JSONSerialization.jsonObject(with: Data(optionsBody)) as? [String: Any])
        #expect((options["rp"] as? [String: Any])?["id"] as? String == "moim.example")
        #expect((options["authenticatorSelection"] as? [String: Any])?["residentKey"] as? String == "required")
        #expect(try register(mina, phone).status == .seeOther)
        #expect(mina.get("/settings/passkeys").bodyText.contains("My phone"))

        // A visitor signs in with it, straight to where they were going
        let visitor = site.browser()
        let signedIn = visitor.post("/login/passkey", try signInFields(visitor, phone), from: "/login")
        #expect(signedIn.status == .seeOther && signedIn.headers["Location"] == "/crews")
        #expect(visitor.get("/settings").bodyText.contains("mina@example.com"))

        // The same answer again, a copied authenticator behind in its count: refused
        let fields = try signInFields(site.browser(), phone)
        #expect(site.browser().post("/login/passkey", fields, from: "/login").status == .seeOther)
        #expect(site.browser().post("/login/passkey", fields, from: "/login").status == .unprocessableContent, "a challenge is good once")
        let minaID = try #require(try site.database.accounts.user(username: "mina")).storedID
        let stored = try #require(try site.database.accounts.passkeys(userID: minaID).first)
        #expect(stored.signCount == 3 && stored.lastUsedAt != nil)
        phone.signCount = 1
        let behind = site.browser()
        #expect(behind.post("/login/passkey", try signInFields(behind, phone), from: "/login").status == .unprocessableContent)
        #expect(behind.get("/settings").status == .seeOther)
    }

    @Test func forgedBorrowedAndOldAnswersChangeNothing() throws {
        let (site, _, mina, jun) = try site()
        let phone = SoftAuthenticator(.edDSA)
        try register(mina, phone)
        let visitor = site.browser()
        // Another site's origin or relying party, a tampered signature, another member's handle
        for fields in [try signInFields(visitor, phone, origin: "https://evil.example"), try signInFields(visitor, phone, rpID: "evil.example"),
                       try signInFields(visitor, phone, userHandle: Base64URL.encode(App.userHandle(999)))] {
            #expect(visitor.post("/login/passkey", fields, from: "/login").status == .unprocessableContent)
        }
        var tampered = try signInFields(visitor, phone)
        tampered[3].1 = Base64URL.encode(Array(repeating: 7, count: 64))
        #expect(visitor.post("/login/passkey", tampered, from: "/login").status == .unprocessableContent)
        // A challenge past its five minutes
        let old = (0..<32).map { _ in UInt8.random(in: 0...255) }
        try site.database.accounts.keepPasskeyChallenge(hash: Crypto.sha256(old), purpose: "signin", userID: nil, now: Date().addingTimeInterval(-301))
        let late = phone.assertion(challenge: old, origin: Self.origin, rpID: "moim.example")
        #expect(visitor.post("/login/passkey", [("credential_id", Base64URL.encode(phone.credentialID)), ("client_data", Base64URL.encode(late.clientData)),
                                                ("authenticator_data", Base64URL.encode(late.authenticatorData)), ("signature", Base64URL.encode(late.signature))],
                             from: "/login").status == .unprocessableContent)
        // Garbage: 400
        #expect(visitor.post("/login/passkey", [("credential_id", "!!"), ("client_data", "")], from: "/login").status == .badRequest)
        #expect(visitor.get("/settings").status == .seeOther, "never signed in")

        // Jun, signed in, cannot use Mina's passkey as his second factor
        let borrowed = try signInFields(jun, phone)
        #expect(jun.post("/login/passkey", borrowed, from: "/terms").status == .unprocessableContent)
        // A registration replayed, or of a credential already kept
        let options = try challenge(mina.post("/settings/passkeys/options", [], from: "/settings/passkeys"))
        let made = phone.registration(challenge: options, origin: Self.origin, rpID: "moim.example")
        let fields = [("client_data", Base64URL.encode(made.clientData)), ("attestation", Base64URL.encode(made.attestation))]
        #expect(mina.post("/settings/passkeys", fields, from: "/settings/passkeys").status == .conflict)
        #expect(mina.post("/settings/passkeys", fields, from: "/settings/passkeys").status == .unprocessableContent)
        #expect(jun.post("/settings/passkeys", [("client_data", "%%"), ("attestation", "")], from: "/settings/passkeys").status == .badRequest)

        // Removing it: only its owner, and then it signs nobody in
        let minaID = try #require(try site.database.accounts.user(username: "mina")).storedID
        let id = try #require(try site.database.accounts.passkeys(userID: minaID).first).id
        #expect(jun.post("/settings/passkeys/\(id)/delete", [], from: "/settings/passkeys").status == .notFound)
        #expect(mina.post("/settings/passkeys/\(id)/delete", [], from: "/settings/passkeys").status == .seeOther)
        let after = site.browser()
        #expect(after.post("/login/passkey", try signInFields(after, phone), from: "/login").status == .unprocessableContent)
    }

    @Test func aPasskeyIsStaffsSecondFactor() throws {
        let (site, admin, _, _) = try site(requireStaffTwoFactor: true)
        let key = SoftAuthenticator(.rs256)
        #expect(admin.get("/admin").headers["Location"] == "/settings/two-factor", "neither codes nor passkeys: set one up")
        try register(admin, key)
        // Signed in by password: the gate asks, and the page offers the passkey
        let gate = admin.get("/admin")
        #expect(gate.headers["Location"]?.hasPrefix("/two-factor?return_to=") == true)
        #expect(admin.get("/two-factor?return_to=%2Fadmin").bodyText.contains(#"data-passkey="signin""#))
        let given = admin.post("/login/passkey", try signInFields(admin, key, next: "/admin"), from: "/two-factor?return_to=%2Fadmin")
        #expect(given.status == .seeOther && given.headers["Location"] == "/admin")
        #expect(admin.get("/admin").status == .ok)
        // Signed in by the passkey itself: straight in
        let fresh = site.browser()
        #expect(fresh.post("/login/passkey", try signInFields(fresh, key, next: "/admin"), from: "/login").status == .seeOther)
        #expect(fresh.get("/admin").status == .ok)
    }
}
