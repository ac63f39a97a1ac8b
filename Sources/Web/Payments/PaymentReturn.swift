import Foundation
import HTTP
import Network
import Storage

extension App {
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
}
