import HTTP
import Testing
@testable import Web

@Suite struct SignupFormTests {
    func problems(_ changes: [(String, String)]) -> Set<String> {
        var fields: [String: String] = [
            "username": "mina", "email": "mina@example.com", "password": "correct horse battery",
            "password_confirmation": "correct horse battery", "display_name": "Mina Kim",
        ]
        for (name, value) in changes { fields[name] = value }
        return SignupForm(URLEncodedForm(fields.map { ($0.key, $0.value) })).validate().fields
    }

    @Test func aValidFormHasNoProblems() {
        #expect(problems([]).isEmpty)
        // Read as typed, in lower case: "Mina" is mina
        #expect(problems([("username", "  Mina_01 ")]).isEmpty)
    }

    @Test func usernamesAreShortLowerCaseAndNotReserved() {
        #expect(problems([("username", "mi")]) == ["username"])
        #expect(problems([("username", String(repeating: "a", count: 21))]) == ["username"])
        #expect(problems([("username", "mi-na")]) == ["username"])
        #expect(problems([("username", "미나")]) == ["username"])
        #expect(problems([("username", "admin")]) == ["username"])
        #expect(problems([("username", "Settings")]) == ["username"])
    }

    @Test func addressesNeedOneAtAndADottedDomainInPlainASCII() {
        #expect(SignupForm.isValidEmail("mina@mail.example.org"))
        for bad in ["mina", "mina@", "@example.com", "mina@example", "mina@@example.com", "mina@example..com",
                    "mi na@example.com", "미나@example.com", "<mina>@example.com", "mina@example.com\r\nBcc: x@y.z",
                    String(repeating: "a", count: 65) + "@example.com", "a@" + String(repeating: "b", count: 250) + ".com"] {
            #expect(!SignupForm.isValidEmail(bad), "\(bad)")
        }
    }

    @Test func passwordsAreLongEnoughAndTypedTwice() {
        #expect(problems([("password", "short"), ("password_confirmation", "short")]) == ["password"])
        #expect(problems([("password_confirmation", "correct horse battery!")]) == ["password_confirmation"])
        let long = String(repeating: "p", count: 129)
        #expect(problems([("password", long), ("password_confirmation", long)]) == ["password"])
    }

    @Test func theProfilePartIsCheckedToo() {
        #expect(problems([("display_name", "")]) == ["display_name"])
        #expect(problems([("gender", "robot")]) == ["gender"])
    }
}
