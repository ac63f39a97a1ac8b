import Foundation
import HTTP
import Network
import Storage

/// PortOne's window, opened by its browser SDK from this page only.
struct PaymentWindowView: PageView {
    static let template = "payment-window"
    let summary: PaymentSummary
    let request: PortOneRequest
    let methods: [ProviderChoice]
    let testMode: Bool
}

/// What is paid, to whom and how much, at the top of each payment page.
struct PaymentSummary {
    let crewName: String
    let crewURL: String
    let what: String
    let amount: String
}

/// What PortOne's browser SDK is asked for (`requestPayment`), read by `portone-pay.js`.
struct PortOneRequest {
    let sdkURL: String
    let storeID: String
    let channelKey: String
    let paymentID: String
    let orderName: String
    let amountValue: Int
    let currency: String
    let returnURL: String
    let customerName: String
    let customerEmail: String
}

/// Where a payment stands, after the window or the provider's page.
struct PaymentResultView: PageView {
    static let template = "payment-result"
    let summary: PaymentSummary
    let state: String
    let headline: String
    let detail: String
    let isPaid: Bool
    let isPending: Bool
    let isProblem: Bool
    let provider: String
    let publicID: String
    let reference: String?
    let refunded: String?
    let refundReason: String?
    let checkURL: String
    let retryURL: String?
    let testMode: Bool
}

extension App {
    /// `GET /payments/:id/pay`: PortOne's window for an attempt under way (its payer only).
    func paymentWindow(_ context: RequestContext) throws -> HTTPResponse {
        let (payment, crew, user) = try payerPayment(context)
        guard payment.state == .pending, payment.provider == "portone", let settings = configuration.payments?.portOne else {
            return redirect(to: Paths.payment(payment.publicID))
        }
        let language = context.language
        let methods = [ProviderChoice(id: "CARD", label: localizer.text(.payments.methods.CARD, language))]
            + settings.easyPay.map { ProviderChoice(id: $0, label: localizer.text(TextKey.payments.methods.named($0), language, otherwise: $0)) }
        let view = PaymentWindowView(
            summary: paymentSummary(payment, crew, language),
            request: PortOneRequest(
                sdkURL: settings.sdkURL, storeID: settings.client.storeID, channelKey: settings.channelKey, paymentID: payment.publicID,
                orderName: payment.orderName, amountValue: Money.minor(payment.amount, payment.currency) ?? 0, currency: payment.currency,
                returnURL: publicURL(context).origin + Paths.paymentReturn(payment.publicID), customerName: user.displayName,
                customerEmail: user.email),
            methods: methods, testMode: settings.testMode)
        var response = page(view, context, title: localizer.text(.payments.title, language), section: .crews)
        // PortOne's SDK, and the windows it frames, on this page alone.
        let sdkOrigin = HTTPEndpoint.split(settings.sdkURL).map { ($0.endpoint.isSecure ? "https://" : "http://") + $0.endpoint.hostHeader } ?? ""
        response.headers.set("Content-Security-Policy", Self.pageSecurityPolicy(script: [sdkOrigin], frame: ["https:", sdkOrigin], connect: ["https:", sdkOrigin]))
        response.headers.set("Referrer-Policy", "strict-origin-when-cross-origin")
        return response
    }

    /// `GET /payments/:id`: the payment's result, for its payer, the crew's staff and site staff.
    func paymentShow(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let publicID = context.request.parameters["id"], let payment = try database.payments.payment(publicID: publicID),
              let crew = try database.crews.crew(id: payment.crewID) else { throw HTTPError(.notFound) }
        let isStaff = try database.crews.crewRole(crewID: crew.storedID, userID: user.storedID)?.isStaff == true
        guard payment.userID == user.id || isStaff || user.isStaff else { throw HTTPError(.notFound) }
        let language = context.language
        let standing = payment.standing
        let arguments = ["crew": crew.name, "amount": money(payment.amount, payment.currency, language)]
        let detail = switch payment.state {
        case .paid: localizer.text(payment.paidKey(joinPolicy: crew.joinPolicy), language, arguments)
        case .failed, .voided: payment.failure
        default: standing.detailKey.map { localizer.text($0, language, arguments) } ?? ""
        }
        let view = PaymentResultView(
            summary: paymentSummary(payment, crew, language),
            state: localizer.text(standing.stateKey, language), headline: localizer.text(standing.headlineKey, language, arguments), detail: detail,
            isPaid: payment.state == .paid, isPending: payment.state == .pending, isProblem: [.failed, .voided].contains(payment.state),
            provider: paymentProviders.provider(payment.provider)?.name ?? payment.provider, publicID: payment.publicID,
            reference: payment.providerReference,
            refunded: payment.refundedAmount > 0 ? money(payment.refundedAmount, payment.currency, language) : nil,
            refundReason: payment.refundReason.nilIfEmpty, checkURL: Paths.paymentReturn(payment.publicID),
            retryURL: [.failed, .cancelled, .expired].contains(payment.state) && payment.userID == user.id
                ? Paths.crewPay(crew.slug) + (payment.purpose == .dues ? "?for=dues&period=\(payment.duesPeriodID ?? 0)" : "") : nil,
            testMode: paymentProviders.provider(payment.provider)?.isTestMode ?? false)
        return page(view, context, title: localizer.text(.payments.title, language), section: .crews)
    }

    private func paymentSummary(_ payment: Payment, _ crew: Crew, _ language: Language) -> PaymentSummary {
        PaymentSummary(crewName: crew.name, crewURL: Paths.crew(crew.slug), what: payment.orderName, amount: money(payment.amount, payment.currency, language))
    }

    /// The payment named by `:id`, which the signed-in member pays.
    private func payerPayment(_ context: RequestContext) throws -> (Payment, Crew, User) {
        let user = try context.requireUser()
        guard let publicID = context.request.parameters["id"], let payment = try database.payments.payment(publicID: publicID), payment.userID == user.id,
              let crew = try database.crews.crew(id: payment.crewID) else { throw HTTPError(.notFound) }
        return (payment, crew, user)
    }
}
