import Foundation
import HTTP
import Network
import Storage

extension App {
    /// `POST /payments/webhooks/:provider`: a provider says a payment changed. The signature
    /// and time are checked, the provider is asked what became of the payment, and 200 comes
    /// only once that is stored (a provider retries anything else). Delivered twice, or after
    /// the browser came back, it changes nothing twice.
    func paymentWebhook(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let id = request.parameters["provider"], let provider = paymentProviders.provider(id) else { throw HTTPError(.notFound) }
        let notice: WebhookNotice
        do {
            notice = try provider.webhook(request, now: Date())
        } catch {
            log("webhook from \(id) refused: \(error)")
            return .text("refused: \(error)\n", status: .badRequest)
        }
        let payment: Payment?
        switch notice {
        case .ignored(let type):
            log("webhook from \(id) ignored: \(type.prefix(80).debugDescription)")
            return .text("ignored\n")
        case .payment(let publicID):
            payment = try database.payments.payment(publicID: publicID)
        case .reference(let reference):
            payment = try database.payments.payment(provider: id, reference: reference)
        }
        guard let payment, payment.provider == id else {
            log("webhook from \(id) about a payment Moim does not know: \(String(describing: notice).prefix(120))")
            return .text("unknown payment, ignored\n")
        }
        do {
            try settle(payment)
        } catch let error as PaymentAPIError {
            log("webhook from \(id) for \(payment.publicID): the provider could not be asked: \(error)")
            var response = HTTPResponse.text("try again\n", status: .serviceUnavailable)
            response.headers.set("Retry-After", "30")
            return response
        }
        return .text("ok\n")
    }
}
