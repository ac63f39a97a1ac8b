import Foundation
import HTTP
import Network
import Storage

/// PortOne V2: the amount pre-registered under Moim's payment id, the window opened by
/// PortOne's browser SDK on Moim's page, the payment read back from the API.
struct PortOneProvider: PaymentProvider {
    let settings: PortOneSettings
    let client: PortOneClient

    init(_ settings: PortOneSettings, timeout: Int) {
        self.settings = settings
        client = PortOneClient(settings.client, timeout: timeout)
    }

    var id: String { "portone" }
    var name: String { "PortOne" }
    var isTestMode: Bool { settings.testMode }
    var checkoutOrigin: String? { nil }
    /// The channels Korean PGs give are in won.
    func accepts(currency: String) -> Bool { currency == "KRW" }

    func prepare(_ payment: Payment, returnURL: String, cancelURL: String, payer: User, language: Language) throws(PaymentAPIError) -> Checkout {
        guard let amount = Money.minor(payment.amount, payment.currency) else { throw .malformed("amount out of range") }
        try client.preRegister(paymentID: payment.publicID, amount: amount, currency: payment.currency)
        return .window
    }

    func lookup(_ payment: Payment) throws(PaymentAPIError) -> ProviderPayment {
        do {
            var answer = try client.payment(id: payment.publicID)
            // Another store's payment under this id is nobody's payment here (and not ours to refund).
            if let store = answer.store, store != settings.client.storeID {
                answer = ProviderPayment(status: .failed("a payment of another store (\(store.prefix(60)))"), amount: 0, refunded: 0, currency: answer.currency)
            }
            return answer
        } catch let error where error.isNotFound {
            // Pre-registered but never opened: nothing was paid.
            return ProviderPayment(status: .pending, amount: 0, refunded: 0, currency: payment.currency)
        }
    }

    /// PortOne has no way to close a pre-registered payment; one paid after it closed here is
    /// voided and given back when it is settled.
    func expire(_ payment: Payment) throws(PaymentAPIError) {}

    func refund(_ payment: Payment, amount: Int?, reason: String, key: String) throws(PaymentAPIError) -> ProviderRefund {
        try client.cancel(paymentID: payment.publicID, amount: amount, reason: reason.isEmpty ? "refund" : reason)
    }

    func webhook(_ request: HTTPRequest, now: Date) throws(WebhookRefusal) -> WebhookNotice {
        let headers = request.headers
        let event = try PortOneWebhook.verify(secret: settings.webhookSecret, id: headers["webhook-id"], timestamp: headers["webhook-timestamp"],
                                              signature: headers["webhook-signature"], body: request.body, now: now)
        guard event.type.hasPrefix("Transaction."), let paymentID = event.paymentID else { return .ignored(event.type) }
        guard event.storeID == nil || event.storeID == settings.client.storeID else { return .ignored("another store's " + event.type) }
        return .payment(paymentID)
    }
}
