import Foundation
import Testing
@testable import Network

/// The providers' answers and webhooks read as the providers document them, and refused when
/// they are not what they claim.
@Suite struct PaymentAnswerTests {
    /// Standard Webhooks' own test vector (the specification's example).
    @Test func aStandardWebhooksSignatureFromTheSpecificationVerifiesAndNothingElseDoes() throws {
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", id = "msg_p5jXN8AQM9LWM0D4loKWxJek"
        let body = Array(#"{"test": 2432232314}"#.utf8)
        let signature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        let now = Date(timeIntervalSince1970: 1_614_265_330 + 60)
        // The signature is right; the body is no PortOne webhook, so it is refused as malformed, not as forged.
        #expect(throws: WebhookRefusal.malformed("not a PortOne webhook")) {
            try PortOneWebhook.verify(secret: secret, id: id, timestamp: "1614265330", signature: "v1a,xx " + signature, body: body, now: now)
        }
        #expect(throws: WebhookRefusal.badSignature) {
            try PortOneWebhook.verify(secret: secret, id: id + "x", timestamp: "1614265330", signature: signature, body: body, now: now)
        }
        #expect(throws: WebhookRefusal.tooOld) {
            try PortOneWebhook.verify(secret: secret, id: id, timestamp: "1614265330", signature: signature, body: body, now: now.addingTimeInterval(300))
        }
        #expect(throws: WebhookRefusal.tooNew) {
            try PortOneWebhook.verify(secret: secret, id: id, timestamp: "1614265330", signature: signature, body: body, now: now.addingTimeInterval(-700))
        }
        #expect(throws: WebhookRefusal.missingHeaders) {
            try PortOneWebhook.verify(secret: secret, id: nil, timestamp: "1614265330", signature: signature, body: body, now: now)
        }
        #expect(throws: WebhookRefusal.badSignature) {
            try PortOneWebhook.verify(secret: secret, id: id, timestamp: "99999999999999999999", signature: signature, body: body, now: now)
        }
    }

    @Test func aStripeEventIsBelievedOnlyWithItsSignatureAndWithinFiveMinutes() throws {
        let body = #"{"id":"evt_1","object":"event","type":"checkout.session.completed","data":{"object":{"id":"cs_test_1","object":"checkout.session","status":"complete","payment_status":"paid","amount_total":2000,"currency":"usd","url":null,"client_reference_id":"moim_x","payment_intent":"pi_1"}}}"#
        let header = "t=1800000000,v1=7ddb4a4a9f00cd4e04291730eeaec42646796296037e1339b2c914e1807d2ad0"
        let now = Date(timeIntervalSince1970: 1_800_000_100)
        let event = try StripeEvent.verify(secret: "whsec_stripe_vector", header: header, body: Array(body.utf8), now: now)
        #expect(event.type == "checkout.session.completed" && event.session?.id == "cs_test_1")
        #expect(event.session?.payment == ProviderPayment(status: .paid, amount: 2000, refunded: 0, currency: "USD", transaction: "pi_1"))
        #expect(throws: WebhookRefusal.badSignature) { try StripeEvent.verify(secret: "whsec_other", header: header, body: Array(body.utf8), now: now) }
        #expect(throws: WebhookRefusal.tooOld) {
            try StripeEvent.verify(secret: "whsec_stripe_vector", header: header, body: Array(body.utf8), now: now.addingTimeInterval(400))
        }
        #expect(throws: WebhookRefusal.missingHeaders) { try StripeEvent.verify(secret: "whsec_stripe_vector", header: "t=1800000000", body: [], now: now) }
    }

    @Test func portOnePaymentsAreReadByStatusAndImpossibleAmountsRefused() throws {
        func answer(_ status: String, paid: Int, cancelled: Int = 0) -> [UInt8] {
            Array(#"{"status":"\#(status)","id":"moim_x","storeId":"store-1","transactionId":"tx","amount":{"total":10000,"paid":\#(paid),"cancelled":\#(cancelled)},"currency":"KRW","failure":{"reason":"card declined"}}"#.utf8)
        }
        #expect(try PortOnePayment.parse(answer("PAID", paid: 10_000)) == ProviderPayment(status: .paid, amount: 10_000, refunded: 0, currency: "KRW", store: "store-1", transaction: "tx"))
        #expect(try PortOnePayment.parse(answer("PARTIAL_CANCELLED", paid: 10_000, cancelled: 3_000)).refunded == 3_000)
        #expect(try PortOnePayment.parse(answer("READY", paid: 0)).status == .pending)
        #expect(try PortOnePayment.parse(answer("FAILED", paid: 0)).status == .failed("card declined"))
        #expect(throws: PaymentAPIError.self) { try PortOnePayment.parse(answer("PAID", paid: -1)) }
        #expect(throws: PaymentAPIError.self) { try PortOnePayment.parse(answer("PAID", paid: 100, cancelled: 200)) }
        #expect(throws: PaymentAPIError.self) { try PortOnePayment.parse(answer("WHATEVER", paid: 0)) }
        #expect(throws: PaymentAPIError.self) { try PortOnePayment.parse(Array(#"{"status":"PAID","amount":{"total":1e400}}"#.utf8)) }
        #expect(PortOnePayment.error(status: 404, Array(#"{"type":"PAYMENT_NOT_FOUND","message":"no"}"#.utf8)).isNotFound)
        #expect(PortOnePayment.error(status: 502, []) == .unavailable("PortOne answered 502"))
    }

    @Test func requestBodiesEscapeWhatMembersTyped() {
        let body = JSONText.object(["orderName": .string("\"Hangang\" \\ 러닝\n\u{1}"), "totalAmount": .integer(10_000)]).rendered
        #expect(body == #"{"orderName":"\"Hangang\" \\ 러닝\n\u0001","totalAmount":10000}"#)
        #expect((try? JSONSerialization.jsonObject(with: Data(body.utf8))) != nil)
    }
}
