import Formats
import Foundation
import HTTP
import Network
import Storage

/// The page before paying: what, to whom, how much, what happens next, and a button per provider.
struct PaymentPageView: PageView {
    static let template = "payment-start"
    let summary: PaymentSummary
    let next: String
    let action: String
    let purpose: String
    let periodID: Int64?
    let amountValue: Int
    let providers: [ProviderChoice]
    let needsCode: Bool
    let testMode: Bool
}

struct ProviderChoice {
    let id: String
    let label: String
    var isCard: Bool { id == "CARD" }
}

extension App {
    /// `GET /crews/:slug/pay?for=join|dues&period=ID`.
    func paymentNew(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let crew = try crew(context)
        let ask = try paymentAsk(crew, user, context)
        let language = context.language
        let providers = paymentProviders.providers(for: crew.feeCurrency)
        guard !providers.isEmpty else { throw HTTPError(.notFound, message: localizer.text(.payments.errors.not_configured, language)) }
        let nextKey = ask.purpose == .dues ? .payments.next.dues : crew.joinPolicy.paymentNextKey
        let view = PaymentPageView(
            summary: PaymentSummary(crewName: crew.name, crewURL: Paths.crew(crew.slug), what: ask.orderName, amount: money(ask.amount, crew.feeCurrency, language)),
            next: localizer.text(nextKey, language, ["crew": crew.name]), action: Paths.crewPay(crew.slug), purpose: ask.purpose.rawValue,
            periodID: ask.period?.id, amountValue: ask.amount,
            providers: providers.map { provider in
                let label = TextKey.payments.pay_with.named(provider.id).map { localizer.text($0, language, ["amount": money(ask.amount, crew.feeCurrency, language)]) }
                return ProviderChoice(id: provider.id, label: label ?? provider.name)
            },
            needsCode: ask.purpose == .join && crew.joinPolicy == .invite, testMode: providers.contains { $0.isTestMode })
        var response = page(view, context, title: localizer.text(.payments.title, language), section: .crews)
        let origins = providers.compactMap(\.checkoutOrigin)
        if !origins.isEmpty {
            // Stripe's page is where the form's answer leads: the form may go there.
            response.headers.set("Content-Security-Policy", Self.pageSecurityPolicy(formAction: origins))
        }
        return response
    }

    /// `POST /crews/:slug/pay`: fixes the amount with the provider, then sends the browser to pay.
    func paymentCreate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let crew = try crew(context)
        let ask = try paymentAsk(crew, user, context)
        let language = context.language
        guard let provider = context.form["provider"].flatMap(paymentProviders.provider), provider.accepts(currency: crew.feeCurrency) else {
            throw HTTPError(.unprocessableContent, message: localizer.text(.payments.errors.provider, language))
        }
        // What the page showed: a fee that changed since is refused, never charged.
        guard let shown = Checked.integer((context.form["amount"] ?? "").trimmed, in: 1...100_000_000) else {
            throw HTTPError(.unprocessableContent, message: localizer.text(.payments.errors.provider, language))
        }
        guard shown == ask.amount else { throw refusal(.priceChanged, language) }
        let request = PaymentRequest(
            crewID: try crew.storedID, userID: try user.storedID, purpose: ask.purpose, duesPeriodID: ask.period?.id, provider: provider.id,
            amount: shown, currency: crew.feeCurrency, orderName: ask.orderName, inviteCode: context.form["code"]?.trimmed,
            publicID: Self.newPaymentID(),
            lifetime: configuration.payments?.attemptLifetime ?? 3_600)
        let (payment, isNew) = try storageAction(context, Self.crewRefusals) { try database.payments.openPayment(request) }
        if !isNew {
            if let url = payment.checkoutURL { return .redirect(to: url) }
            return redirect(to: Paths.paymentWindow(payment.publicID))
        }
        let origin = publicURL(context).origin
        do {
            switch try provider.prepare(payment, returnURL: origin + Paths.paymentReturn(payment.publicID),
                                        cancelURL: origin + Paths.paymentReturn(payment.publicID) + "?cancelled=1", payer: user, language: language) {
            case .redirect(let url, let reference):
                try database.payments.setPaymentCheckout(id: payment.storedID, reference: reference, checkoutURL: url)
                return .redirect(to: url)
            case .window:
                return redirect(to: Paths.paymentWindow(payment.publicID))
            }
        } catch {
            // Nobody can pay an attempt the provider never heard of: close it, and say when to try again.
            log("payment \(payment.publicID): \(provider.id) could not be readied: \(error)")
            _ = try? database.payments.settlePayment(id: payment.storedID, verdict: .cancelled, received: 0, today: today())
            throw HTTPError(.serviceUnavailable, message: localizer.text(.payments.errors.unavailable, language), headers: ["Retry-After": "60"])
        }
    }

    /// What the member would pay: the crew's join fee, or a period's dues; refused when there is nothing to pay.
    private func paymentAsk(_ crew: Crew, _ user: User, _ context: RequestContext) throws -> (purpose: Payment.Purpose, amount: Int, orderName: String, period: DuesPeriod?) {
        let language = context.language
        let role = try viewerRole(crew, context)
        if context.form["for"] == "dues" {
            guard role?.isMember == true else { throw refusal(.forbidden, language, Self.crewRefusals) }
            guard let id = Checked.integer(context.form["period"] ?? "", in: 1...Int.max).map(Int64.init),
                  let period = try database.payments.duesPeriod(id: id), period.crewID == crew.id, period.closedAt == nil else { throw HTTPError(.notFound) }
            return (.dues, period.amount, "\(crew.name) · \(period.name)", period)
        }
        guard crew.feeAmount > 0 else { throw HTTPError(.notFound) }
        guard role == nil else { throw refusal(.duplicate, language, Self.crewRefusals) }
        guard !crew.isFull else { throw refusal(.full, language, Self.crewRefusals) }
        return (.join, crew.feeAmount, localizer.text(.payments.join_fee, language, ["crew": crew.name]), nil)
    }

    /// A new attempt's id, which the provider knows it by and addresses show: `moim_` and 22
    /// letters and digits (16 random bytes), as PortOne's payment ids allow.
    static func newPaymentID() -> String {
        "moim_" + String(Crypto.randomToken(16).map { $0 == "-" ? "x" : $0 == "_" ? "y" : $0 })
    }

}
