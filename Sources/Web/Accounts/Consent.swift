import Formats
import Foundation
import HTTP
import Storage

/// The agreements on the signup forms and on the page that asks again: the terms and,
/// separately, the collection and use of personal data (neither ticked beforehand), being 14 or
/// older, and news by mail (optional). The form carries the versions the newcomer was shown,
/// so that a document published meanwhile is read before it is agreed to.
struct ConsentForm {
    var agreesToTerms: Bool
    var agreesToPrivacy: Bool
    /// `14plus`, `under14`, or empty (not answered).
    var age: String
    var marketing: Bool
    var termsVersion: Int?
    var privacyVersion: Int?

    init(_ form: URLEncodedForm) {
        agreesToTerms = form["agree_terms"] == "yes"
        agreesToPrivacy = form["agree_privacy"] == "yes"
        age = form["age"] ?? ""
        marketing = form["marketing"] == "yes"
        termsVersion = Checked.integer(form["terms_version"] ?? "", in: 1...1_000_000)
        privacyVersion = Checked.integer(form["privacy_version"] ?? "", in: 1...1_000_000)
    }

    var isUnder14: Bool { age == "under14" }

    /// The consent to store, or nil with the reasons in `errors`. `asking` is what this form
    /// asks for (a member asked again agrees only to what changed, and their age is known).
    func consent(current: DocumentVersions, asking: Set<ConsentView.Part>, into errors: inout FieldErrors) -> Consent? {
        let before = errors.fields.count
        if asking.contains(.terms) {
            if !agreesToTerms { errors.add("agree_terms", .errors.consent_terms) }
            else if termsVersion != current.terms { errors.add("agree_terms", .errors.consent_changed) }
        }
        if asking.contains(.privacy) {
            if !agreesToPrivacy { errors.add("agree_privacy", .errors.consent_privacy) }
            else if privacyVersion != current.privacy { errors.add("agree_privacy", .errors.consent_changed) }
        }
        if asking.contains(.age), age != "14plus", age != "under14" { errors.add("age", .errors.consent_age) }
        guard errors.fields.count == before else { return nil }
        return Consent(terms: asking.contains(.terms) ? current.terms : nil, privacy: asking.contains(.privacy) ? current.privacy : nil,
                       olderThan14: asking.contains(.age) && age == "14plus", marketing: marketing)
    }
}

/// The consent fields as a form template shows them (`consent-fields`).
struct ConsentView {
    enum Part: Hashable { case terms, privacy, age, marketing }

    let termsVersion: Int
    let privacyVersion: Int
    let asksTerms: Bool
    let asksPrivacy: Bool
    let asksAge: Bool
    let asksMarketing: Bool
    let agreesToTerms: Bool
    let agreesToPrivacy: Bool
    let olderThan14: Bool
    let under14: Bool
    let marketing: Bool

    /// Everything, as on the signup forms.
    static let signup: Set<Part> = [.terms, .privacy, .age, .marketing]

    init(_ form: ConsentForm, current: DocumentVersions, asking: Set<Part>) {
        termsVersion = current.terms
        privacyVersion = current.privacy
        asksTerms = asking.contains(.terms)
        asksPrivacy = asking.contains(.privacy)
        asksAge = asking.contains(.age)
        asksMarketing = asking.contains(.marketing)
        agreesToTerms = form.agreesToTerms
        agreesToPrivacy = form.agreesToPrivacy
        olderThan14 = form.age == "14plus"
        under14 = form.isUnder14
        marketing = form.marketing
    }
}

/// A signed-in member asked to agree to new versions before anything else.
struct AgreementsView: PageView {
    static let template = "agreements"
    let consent: ConsentView
    let returnTo: String
    let errors: [String: String]
    var hasErrors: Bool { !errors.isEmpty }
}

/// A newcomer who said they are under 14.
struct UnderAgeView: PageView {
    static let template = "under-age"
}

extension App {
    /// The latest version of each document, read again every few seconds (another server may
    /// publish one) and at once after this server does.
    func currentDocuments() throws -> DocumentVersions {
        try documentVersions.value { try database.accounts.documentVersions() }
    }

    /// Pages a member who has not agreed to the latest terms can still reach: the documents
    /// themselves, agreeing, leaving, and taking their data with them; and what pages fetch
    /// that is not a page (the event stream, suggestions, the manifest).
    private static let openWithoutAgreement = Set([Paths.agreements, Paths.logout, Paths.deleteAccount, Paths.events,
                                                   Paths.searchSuggestions, "/manifest.webmanifest"]
        + SiteDocument.Kind.allCases.map(Paths.document))
    private static let openPrefixesWithoutAgreement = [Paths.dataExport, "/calendar/"]

    /// Where a signed-in member goes first when a newer version of the terms or the privacy
    /// policy waits for their agreement; nil when nothing does.
    func agreementsFirst(_ context: RequestContext) throws -> HTTPResponse? {
        let path = context.request.path
        guard let user = context.user, !Self.openWithoutAgreement.contains(path),
              !Self.openPrefixesWithoutAgreement.contains(where: path.hasPrefix) else { return nil }
        guard !(try currentDocuments().pending(for: user).isEmpty) else { return nil }
        let back = context.request.method == .get ? context.request.target : Paths.home
        return .redirect(to: Paths.agreements + "?return_to=" + PercentEncoding.encode(Paths.local(back)))
    }

    /// `GET /agreements`
    func agreementsShow(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let returnTo = Paths.local(context.form["return_to"])
        let pending = try currentDocuments().pending(for: user)
        guard !pending.isEmpty else { return .redirect(to: returnTo) }
        return try renderAgreements(ConsentForm(URLEncodedForm()), pending: pending, errors: FieldErrors(), returnTo: returnTo, context)
    }

    /// `POST /agreements`: what the member agreed to, then on to where they were going.
    func agreementsCreate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let returnTo = Paths.local(context.form["return_to"])
        let current = try currentDocuments()
        let pending = current.pending(for: user)
        guard !pending.isEmpty else { return .redirect(to: returnTo) }
        let form = ConsentForm(context.form)
        var errors = FieldErrors()
        guard let consent = form.consent(current: current, asking: Self.parts(pending), into: &errors) else {
            return try renderAgreements(form, pending: pending, errors: errors, returnTo: returnTo, context)
        }
        try database.accounts.agree(userID: user.storedID, to: consent)
        return .redirect(to: returnTo)
    }

    private static func parts(_ pending: [SiteDocument.Kind]) -> Set<ConsentView.Part> {
        Set(pending.compactMap { $0 == .terms ? .terms : $0 == .privacy ? .privacy : nil })
    }

    private func renderAgreements(_ form: ConsentForm, pending: [SiteDocument.Kind], errors: FieldErrors, returnTo: String,
                                  _ context: RequestContext) throws -> HTTPResponse {
        let view = AgreementsView(consent: ConsentView(form, current: try currentDocuments(), asking: Self.parts(pending)),
                                  returnTo: returnTo, errors: errors.localized(localizer, context.language))
        return page(view, context, title: localizer.text(.consent.again_title, context.language),
                    status: errors.isEmpty ? .ok : .unprocessableContent)
    }

    /// The answer to a newcomer under 14: nothing is kept.
    func underAge(_ context: RequestContext) -> HTTPResponse {
        page(UnderAgeView(), context, title: localizer.text(.consent.under_age_title, context.language), status: .forbidden)
    }
}
