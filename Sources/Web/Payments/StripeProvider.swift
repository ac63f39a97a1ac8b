import Foundation
import HTTP
import Network
import Storage

/// Stripe Checkout: Moim makes a session and sends the browser to Stripe's page, which needs
/// no script of ours; the session is read back on return and by webhook.
struct StripeProvider: PaymentProvider {
    let settings: StripeSettings
    let client: StripeClient

    init(_ settings: StripeSettings, timeout: Int) {
        self.settings = settings
        client = StripeClient(settings.client, timeout: timeout)
    }

    var id: String { "stripe" }
    var name: String { "Stripe" }
    var isTestMode: Bool { settings.client.isTestMode }
    var checkoutOrigin: String? {
        settings.client.apiURL == "https://api.stripe.com" ? "https://checkout.stripe.com" : HTTPEndpoint.split(settings.client.apiURL).map {
            ($0.endpoint.isSecure ? "https://" : "http://") + $0.endpoint.hostHeader
        }
    }
    func accepts(currency: String) -> Bool { ["KRW", "USD", "EUR", "JPY"].contains(currency) }

    func prepare(_ payment: Payment, returnURL: String, cancelURL: String, payer: User, language: Language) throws(PaymentAPIError) -> Checkout {
        guard let amount = Money.minor(payment.amount, payment.currency) else { throw .malformed("amount out of range") }
        // Stripe keeps a session open for at least 30 minutes.
        let request = StripeClient.CheckoutRequest(
            reference: payment.publicID, name: payment.orderName, amount: amount, currency: payment.currency,
            successURL: returnURL + "?session_id={CHECKOUT_SESSION_ID}", cancelURL: cancelURL, email: payer.email.isEmpty ? nil : payer.email,
            locale: language == .ko ? "ko" : "en", expiresAt: max(payment.expiresAt, payment.createdAt.addingTimeInterval(1_860)))
        let session = try client.createSession(request)
        guard let url = session.url, HTTPEndpoint.split(url) != nil else { throw .malformed("a session without its page") }
        return .redirect(url: url, reference: session.id)
    }

    func lookup(_ payment: Payment) throws(PaymentAPIError) -> ProviderPayment {
        guard let sessionID = payment.providerReference else {
            return ProviderPayment(status: .pending, amount: 0, refunded: 0, currency: payment.currency)
        }
        let session = try client.session(id: sessionID)
        guard session.reference == nil || session.reference == payment.publicID else {
            throw .malformed("the session belongs to another payment")
        }
        var answer = session.payment
        if answer.status == .paid, let intent = session.paymentIntent {
            answer.refunded = try client.refunded(paymentIntent: intent)
        }
        return answer
    }

    func expire(_ payment: Payment) throws(PaymentAPIError) {
        guard let sessionID = payment.providerReference else { return }
        do {
            _ = try client.expire(sessionID: sessionID)
        } catch .refused(let status, _, _) where status == 400 {
            // Already complete or expired: the lookup that follows says which.
        }
    }

    func refund(_ payment: Payment, amount: Int?, reason: String, key: String) throws(PaymentAPIError) -> ProviderRefund {
        guard let sessionID = payment.providerReference, let intent = try client.session(id: sessionID).paymentIntent else {
            throw .refused(status: 404, type: "no_payment_intent", message: "nothing was paid in this session")
        }
        return try client.refund(paymentIntent: intent, amount: amount, reason: reason, key: key)
    }

    func webhook(_ request: HTTPRequest, now: Date) throws(WebhookRefusal) -> WebhookNotice {
        let event = try StripeEvent.verify(secret: settings.webhookSecret, header: request.headers["stripe-signature"], body: request.body, now: now)
        guard event.type.hasPrefix("checkout.session."), let session = event.session else { return .ignored(event.type) }
        return .reference(session.id)
    }
}
