import Foundation
import HTTP
import Network
import Storage

/// PortOne's window, opened by its browser SDK from this page only.
struct PaymentWindowView: PageView {
    static let template = "payment-window"
    let crewName: String
    let crewURL: String
    let what: String
    let amount: String
    let sdkURL: String
    let storeID: String
    let channelKey: String
    let paymentID: String
    let amountValue: Int
    let currency: String
    let returnURL: String
    let customerName: String
    let customerEmail: String
    let methods: [ProviderChoice]
    let testMode: Bool
}

/// Where a payment stands, after the window or the provider's page.
struct PaymentResultView: PageView {
    static let template = "payment-result"
    let crewName: String
    let crewURL: String
    let what: String
    let amount: String
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
            crewName: crew.name, crewURL: Paths.crew(crew.slug), what: payment.orderName, amount: money(payment.amount, payment.currency, language),
            sdkURL: settings.sdkURL, storeID: settings.client.storeID, channelKey: settings.channelKey, paymentID: payment.publicID,
            amountValue: Money.minor(payment.amount, payment.currency) ?? 0, currency: payment.currency,
            returnURL: publicURL(context).origin + Paths.paymentReturn(payment.publicID), customerName: user.displayName,
            customerEmail: user.email, methods: methods, testMode: settings.testMode)
        var response = page(view, context, title: localizer.text(.payments.title, language), section: .crews)
        // PortOne's SDK, and the windows it frames, on this page alone.
        let sdkOrigin = HTTPEndpoint.split(settings.sdkURL).map { ($0.endpoint.isSecure ? "https://" : "http://") + $0.endpoint.hostHeader } ?? ""
        response.headers.set("Content-Security-Policy", Self.pageSecurityPolicy(script: [sdkOrigin], frame: ["https:", sdkOrigin], connect: ["https:", sdkOrigin]))
        response.headers.set("Referrer-Policy", "strict-origin-when-cross-origin")
        return response
    }

    /// `GET /payments/:id/return`: where the provider sends the browser back. What the address
    /// says is never believed: the provider is asked.
    func paymentReturn(_ context: RequestContext) throws -> HTTPResponse {
        guard let publicID = context.request.parameters["id"], let payment = try database.payments.payment(publicID: publicID) else {
            throw HTTPError(.notFound, message: localizer.text(.payments.errors.unknown, context.language))
        }
        let query = context.request.query
        // An address naming another payment or session than this one was not made by its provider for it.
        if let claimed = query["paymentId"], claimed != payment.publicID {
            log("payment \(payment.publicID): a return naming payment \(claimed.prefix(80).debugDescription) refused")
            throw HTTPError(.badRequest, message: localizer.text(.payments.errors.foreign, context.language))
        }
        if let claimed = query["session_id"], claimed != payment.providerReference {
            log("payment \(payment.publicID): a return naming session \(claimed.prefix(80).debugDescription) refused")
            throw HTTPError(.badRequest, message: localizer.text(.payments.errors.foreign, context.language))
        }
        do {
            var (settled, _) = try settle(payment)
            // Closed in the window (PortOne's `code`, Stripe's cancel address) and nothing paid: the attempt ends.
            if settled.state == .pending, query["code"] != nil || query["cancelled"] != nil, context.user?.id == payment.userID {
                try paymentProviders.provider(payment.provider)?.expire(settled)
                (settled, _) = try database.payments.settlePayment(id: settled.storedID, verdict: .cancelled, received: 0, today: today())
            }
        } catch let error as PaymentAPIError {
            // The provider will say later; the result page shows it pending, and the sweep asks again.
            log("payment \(payment.publicID): the provider could not be asked on return: \(error)")
        }
        return redirect(to: Paths.payment(payment.publicID))
    }

    /// `GET /payments/:id`: the payment's result, for its payer, the crew's staff and site staff.
    func paymentShow(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let publicID = context.request.parameters["id"], let payment = try database.payments.payment(publicID: publicID),
              let crew = try database.crews.crew(id: payment.crewID) else { throw HTTPError(.notFound) }
        let isStaff = try database.crews.crewRole(crewID: crew.storedID, userID: user.storedID)?.isStaff == true
        guard payment.userID == user.id || isStaff || user.isStaff else { throw HTTPError(.notFound) }
        let language = context.language
        let state = payment.state == .paid && payment.refundedAmount > 0 ? "partly_refunded" : payment.state.rawValue
        let arguments = ["crew": crew.name, "amount": money(payment.amount, payment.currency, language)]
        let policy = payment.purpose == .dues ? "dues" : crew.joinPolicy.rawValue
        // Stored states and the crew's policy pick the sentences; each is in the catalogs.
        let result = TextKey.payments.result
        let detailKey = result.named(payment.state == .paid ? "paid_\(policy)" : "\(state)_detail")
        let view = PaymentResultView(
            crewName: crew.name, crewURL: Paths.crew(crew.slug), what: payment.orderName, amount: money(payment.amount, payment.currency, language),
            state: localizer.text(TextKey.payments.states.named(state), language, otherwise: state),
            headline: result.named(state).map { localizer.text($0, language, arguments) } ?? state,
            detail: payment.state == .failed || payment.state == .voided ? payment.failure : detailKey.map { localizer.text($0, language, arguments) } ?? "",
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

    /// The payment named by `:id`, which the signed-in member pays.
    private func payerPayment(_ context: RequestContext) throws -> (Payment, Crew, User) {
        let user = try context.requireUser()
        guard let publicID = context.request.parameters["id"], let payment = try database.payments.payment(publicID: publicID), payment.userID == user.id,
              let crew = try database.crews.crew(id: payment.crewID) else { throw HTTPError(.notFound) }
        return (payment, crew, user)
    }
}
