import Formats
import Foundation
import HTTP
import Storage

/// The "verified workplace" part of settings, as the template shows it.
struct WorkplaceSettingsView {
    /// "Works at example.co.kr, verified until …", or that it lapsed; nil when never verified.
    let status: String?
    let lapsed: Bool
    /// Said while a code sent to an address at some domain can be typed.
    let pending: String?
    /// The work address typed, shown again after an error.
    let address: String
    let canRemove: Bool
    /// Where to go once verified: the meetup that asked for it.
    let next: String?
}

extension App {
    /// How long a workplace code can be typed.
    static let workplaceCodeLifetime: TimeInterval = 30 * 60

    /// `POST /settings/workplace`: mails a six-digit code to a work address. Free-mail
    /// addresses prove nothing about a workplace and are refused; at most 3 codes an hour.
    func workplaceCodeCreate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard mailEnabled else { throw HTTPError(.notFound) }
        let address = String((context.form["work_email"] ?? "").trimmed.lowercased().prefix(254))
        var errors = FieldErrors()
        let domain = WorkAddress.domain(of: address)
        if domain == nil {
            errors.add("work_email", .errors.email_format)
        } else if let domain, WorkAddress.isFreeMail(domain) {
            errors.add("work_email", .errors.work_email_free)
        }
        guard errors.isEmpty, let domain else {
            return try renderSettings(ProfileFields(user), user: user, errors: errors, workEmail: address, context)
        }
        let key = String(try user.storedID)
        if let wait = workplaceCodeLimit.retryAfter(key) {
            throw HTTPError(.tooManyRequests, message: localizer.text(.errors.workplace_limit, context.language),
                            headers: ["Retry-After": String(wait)])
        }
        workplaceCodeLimit.record(key)
        let code = WorkAddress.newCode()
        let now = Date()
        try database.profiles.startWorkplaceCheck(
            userID: user.storedID, domain: domain, addressHash: Crypto.sha256(Array(address.utf8)),
            codeHash: WorkAddress.codeHash(code, userID: user.storedID), expiresAt: now.addingTimeInterval(Self.workplaceCodeLifetime), now: now)
        try sendWorkplaceCode(code, to: address, user: user)
        return redirect(to: Self.workplaceSettingsPath(next: context.form["next"]), flash: \.workplace_code_sent)
    }

    /// `POST /settings/workplace/confirm`: the code typed back.
    func workplaceConfirm(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let typed = (context.form["work_code"] ?? "").filter { !$0.isWhitespace }
        var errors = FieldErrors()
        guard typed.utf8.count == 6, typed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            // Not a try: a typo in the form does not cost one of the five.
            errors.add("work_code", .errors.work_code_format)
            return try renderSettings(ProfileFields(user), user: user, errors: errors, context)
        }
        let hash = WorkAddress.codeHash(typed, userID: try user.storedID)
        let result = try storageAction(context) { try database.profiles.confirmWorkplace(userID: user.storedID, codeHash: hash) }
        switch result {
        case .verified:
            let next = context.form["next"].flatMap(Self.meetupAddress)
            return redirect(to: next ?? Paths.settings + "#workplace", flash: \.workplace_verified)
        case .wrongCode(let left):
            errors.add("work_code", left > 0 ? localizer.counted(.errors.work_code_wrong, left, context.language) : .errors.work_code_used_up,
                       ["count": localizer.number(left, context.language)])
        case .noCode:
            errors.add("work_code", .errors.work_code_expired)
        case .addressTaken:
            errors.add("work_email", .errors.work_email_taken)
        }
        return try renderSettings(ProfileFields(user), user: user, errors: errors, context)
    }

    /// `POST /settings/workplace/remove`
    func workplaceRemove(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        try database.profiles.removeWorkplace(userID: user.storedID)
        return redirect(to: Paths.settings + "#workplace", flash: \.workplace_removed)
    }

    /// Settings at the workplace part, keeping the meetup to return to.
    static func workplaceSettingsPath(next: String?) -> String {
        Paths.settings + (next.flatMap(meetupAddress).map { "?for=" + PercentEncoding.encode($0) } ?? "") + "#workplace"
    }

    /// `path` if it is a meetup's page of this site (where a rule sent the member to settings).
    static func meetupAddress(_ path: String) -> String? {
        let local = Paths.local(path)
        return local.hasPrefix("/meetups/") ? local : nil
    }

    func workplaceSettings(_ user: User, address: String, next: String?, _ language: Language) throws -> WorkplaceSettingsView {
        let now = Date()
        var status: String?
        if let domain = user.workplaceDomain, let expiry = user.workplaceExpiry {
            let arguments = ["domain": domain, "date": localizer.date(expiry, language)]
            status = localizer.text(expiry > now ? .workplace.verified_until : .workplace.lapsed, language, arguments)
        }
        let pending = try database.profiles.workplaceCheck(userID: user.storedID, now: now).map { check in
            localizer.text(.workplace.pending, language, ["domain": check.domain, "time": localizer.dateTime(check.expiresAt, language)])
        }
        return WorkplaceSettingsView(
            status: status, lapsed: user.workplaceDomain != nil && user.verifiedWorkplace(at: now) == nil, pending: pending,
            address: address, canRemove: user.workplaceDomain != nil, next: next.flatMap(Self.meetupAddress))
    }

    /// The code, in a mail to the work address (not the account's).
    private func sendWorkplaceCode(_ code: String, to address: String, user: User) throws {
        let language = mailLanguage(user)
        let subject = localizer.text(.mail.workplace.subject, language, ["site": siteName, "code": code])
        let view = CodeMail(
            frame: frame(user, subject: subject, language: language), greeting: greeting(user, language),
            body: localizer.text(.mail.workplace.body, language, ["username": user.username, "site": siteName]),
            code: code, ignore: localizer.text(.mail.workplace.ignore, language))
        try enqueueMail(view, subject: subject, to: user, address: address, kind: .verify, language: language, lifetime: Self.workplaceCodeLifetime)
    }
}

/// Work addresses: which domain one proves, and the codes that prove it.
enum WorkAddress {
    /// The domain of a plausible address (`name@example.co.kr` → `example.co.kr`), or nil.
    static func domain(of address: String) -> String? {
        guard SignupForm.isValidEmail(address), let at = address.lastIndex(of: "@") else { return nil }
        let domain = String(address[address.index(after: at)...])
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard (3...253).contains(domain.utf8.count), labels.count >= 2,
              labels.allSatisfy({ label in
                  (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
                      && label.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "-") }
              })
        else { return nil }
        return domain
    }

    /// A mail service anyone can sign up to (or one of its subdomains): `FreeMail.domains`.
    static func isFreeMail(_ domain: String) -> Bool {
        var rest = Substring(domain)
        while true {
            if FreeMail.domains.contains(String(rest)) { return true }
            guard let dot = rest.firstIndex(of: ".") else { return false }
            rest = rest[rest.index(after: dot)...]
        }
    }

    /// Six random digits.
    static func newCode() -> String {
        let number = UInt32.random(in: 0..<1_000_000)
        return String(repeating: "0", count: 6 - String(number).count) + String(number)
    }

    /// What is stored of a code: tied to its member, so one member's hash says nothing of another's.
    static func codeHash(_ code: String, userID: Int64) -> Data {
        Crypto.sha256(Array("workplace:\(userID):\(code)".utf8))
    }
}
