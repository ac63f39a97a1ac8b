import Foundation
import HTTP
import Storage

/// The signup form: account fields plus the profile fields meetups filter on.
struct SignupForm {
    static let reservedUsernames: Set = [
        "admin", "administrator", "moderator", "moim", "root", "support", "settings", "signup",
        "login", "logout", "system", "staff", "help", "api", "www", AccountStore.deletedMemberUsername,
    ]

    var username: String
    var email: String
    var password: String
    var passwordConfirmation: String
    var profile: ProfileFields
    var consent: ConsentForm

    init(_ form: URLEncodedForm) {
        username = (form["username"] ?? "").trimmed.lowercased()
        email = (form["email"] ?? "").trimmed.lowercased()
        password = form["password"] ?? ""
        passwordConfirmation = form["password_confirmation"] ?? ""
        profile = ProfileFields(form)
        consent = ConsentForm(form)
    }

    func validate() -> FieldErrors {
        var errors = FieldErrors()
        if !Self.isValidUsername(username) {
            errors.add("username", .errors.username_format)
        } else if Self.reservedUsernames.contains(username) {
            errors.add("username", .errors.username_taken)
        }
        if !Self.isValidEmail(email) { errors.add("email", .errors.email_format) }
        PasswordRules.check(password, confirmation: passwordConfirmation, field: "password", into: &errors)
        profile.validate(into: &errors)
        return errors
    }

    static func isValidUsername(_ name: String) -> Bool {
        (3...20).contains(name.utf8.count)
            && name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "_") }
    }

    /// One `@`, something before it, a dotted domain after it, no spaces; real checking
    /// would need to send mail.
    static func isValidEmail(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[0].count <= 64 else { return false }
        let domain = parts[1]
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
            // Plain ASCII without quoting or comments: what mail can be sent to without SMTPUTF8.
            && email.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !"<>()[]\\,;:\"".utf8.contains($0) }
    }
}

/// The password policy: 12 to 128 characters, typed the same twice.
enum PasswordRules {
    static let lengths = 12...128

    static func check(_ password: String, confirmation: String, field: String, into errors: inout FieldErrors) {
        if !lengths.contains(password.count) {
            errors.add(field, .errors.password_length)
        } else if password != confirmation {
            errors.add(field + "_confirmation", .errors.password_mismatch)
        }
    }
}
