import Foundation
import Testing
import HTTP
import Storage
@testable import Web

@Suite struct SignupTests {
    @Test func aNewMemberSignsUpLogsOutAndLogsBackIn() throws {
        // Given a visitor on the signup page
        let site = try TestSite()
        let browser = site.browser()
        #expect(browser.get("/signup").status == .ok)

        // When they sign up
        let created = browser.signUp(username: "mina_run", displayName: "Mina")

        // Then they are signed in and welcomed on the home page
        #expect(created.status == .seeOther)
        #expect(created.headers["Location"] == "/")
        let home = browser.get("/").bodyText
        #expect(home.contains("Welcome to Moim! Your account is ready."))
        #expect(home.contains("href=\"/u/mina_run\""))

        // Typing /logout shows a page with the button; the GET itself signs nobody out
        let question = browser.get("/logout")
        #expect(question.status == .ok)
        #expect(question.bodyText.contains("<h1>Log out of Moim?</h1>") && question.bodyText.contains("action=\"/logout\""))
        #expect(browser.get("/settings").status == .ok)

        // When they log out, the menu is gone
        browser.logOut()
        #expect(browser.get("/logout").bodyText.contains("You are not logged in."))
        #expect(browser.cookies["moim_session"] == nil)
        #expect(!browser.get("/").bodyText.contains("href=\"/u/mina_run\""))

        // And logging in by email brings them back
        let login = browser.logIn("MINA_RUN@example.com")
        #expect(login.status == .seeOther)
        #expect(browser.get("/settings").status == .ok)
    }

    @Test func theUsernameIsLowercasedAndTheProfileFieldsAreKept() throws {
        let site = try TestSite()
        site.browser().signUp(username: "Hana", extra: [("gender", "female"), ("birth_year", "1994"), ("job", "developer"), ("region", "seoul")])
        let user = try #require(try site.database.accounts.user(username: "hana"))
        #expect(user.username == "hana")
        #expect(user.gender == "female" && user.birthYear == 1994 && user.job == "developer" && user.region == "seoul")
    }

    @Test func aTakenUsernameOrEmailReShowsTheFormWithValuesKept() throws {
        let site = try TestSite()
        site.browser().signUp(username: "mina", email: "mina@example.com")

        let sameName = site.browser().signUp(username: "MINA", email: "other@example.com")
        #expect(sameName.status == .unprocessableContent)
        #expect(sameName.bodyText.contains("That username is taken"))
        #expect(sameName.bodyText.contains("value=\"other@example.com\""))

        let sameEmail = site.browser().signUp(username: "mina2", email: "Mina@Example.com")
        #expect(sameEmail.status == .unprocessableContent)
        #expect(sameEmail.bodyText.contains("An account already uses this email"))
        #expect(sameEmail.bodyText.contains("value=\"mina2\""))
        #expect(try site.database.accounts.userCount() == 1)
    }

    @Test(arguments: [
        ("username", "ab", "Use 3–20 lowercase letters"),
        ("username", "mina kim", "Use 3–20 lowercase letters"),
        ("username", "admin", "That username is taken"),
        ("email", "not-an-email", "Enter an email address"),
        ("email", "a@b", "Enter an email address"),
        ("display_name", "", "Enter a name of 1 to 50 characters"),
        ("birth_year", "1850", "Enter the year you were born, from"),
        ("birth_year", "\(Calendar(identifier: .gregorian).component(.year, from: Date()) - 10)", "Enter the year you were born, from"),
        ("region", "mars", "Pick one of the options"),
    ])
    func invalidFieldsGetAMessageBesideThem(_ field: String, _ value: String, _ message: String) throws {
        let site = try TestSite()
        var fields: [String: String] = [
            "username": "valid_name", "email": "valid@example.com", "display_name": "Valid",
            "password": "correct horse battery", "password_confirmation": "correct horse battery",
        ]
        fields[field] = value
        let response = site.browser().post("/signup", fields.map { ($0.key, $0.value) } + Agreed.fields, from: "/signup")
        #expect(response.status == .unprocessableContent)
        #expect(response.bodyText.contains("id=\"\(field)-error\""))
        #expect(response.bodyText.contains(message))
        #expect(try site.database.accounts.userCount() == 0)
    }

    @Test func theEleventhAccountFromOneNetworkKeepsWhatWasTypedAndSaysHowLongToWait() throws {
        let site = try TestSite()
        for number in 1...10 {
            #expect(site.browser(address: "198.51.100.7").signUp(username: "runner\(number)").status == .seeOther)
        }
        let refused = site.browser(address: "198.51.100.7").signUp(username: "late_one", displayName: "Late Runner")
        #expect(refused.status == .tooManyRequests)
        let wait = try #require(refused.headers["Retry-After"].flatMap { Int($0) })
        #expect(wait > 3_500 && wait <= 3_600)
        #expect(refused.bodyText.contains("Try again in 1 hour;"))
        #expect(refused.bodyText.contains("value=\"late_one\"") && refused.bodyText.contains("value=\"Late Runner\""))
        // Another network is not held up.
        #expect(site.browser(address: "203.0.113.9").signUp(username: "elsewhere").status == .seeOther)
    }

    @Test func passwordsMustBeLongEnoughAndTypedTwice() throws {
        let site = try TestSite()
        let short = site.browser().signUp(password: "short")
        #expect(short.status == .unprocessableContent)
        #expect(short.bodyText.contains("Use 12 to 128 characters."))
        #expect(!short.bodyText.contains("value=\"short\""))

        let mismatch = site.browser().post("/signup", [
            ("username", "mina"), ("email", "mina@example.com"), ("display_name", "Mina"),
            ("password", "correct horse battery"), ("password_confirmation", "correct horse battery!"),
        ] + Agreed.fields)
        #expect(mismatch.status == .unprocessableContent)
        #expect(mismatch.bodyText.contains("The two passwords do not match."))
    }

    @Test func theDatabaseHoldsOnlyAnArgon2Hash() throws {
        let site = try TestSite()
        site.browser().signUp(username: "mina", password: "correct horse battery")
        let user = try #require(try site.database.accounts.user(username: "mina"))
        #expect(user.passwordHash.hasPrefix("$argon2id$"))
        #expect(!user.passwordHash.contains("correct horse battery"))
    }

    @Test func htmlInADisplayNameIsShownAsText() throws {
        let site = try TestSite()
        let browser = site.browser()
        browser.signUp(username: "sneaky", displayName: "<script>alert(1)</script>")
        let profile = browser.get("/u/sneaky").bodyText
        #expect(profile.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!profile.contains("<script>alert(1)"))
    }
}
