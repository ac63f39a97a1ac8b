import Foundation

/// Stripe's REST API for Checkout: a session Moim sends the browser to, read back on return
/// and by webhook, and refunds. Requests are form-encoded with the secret key as a bearer
/// token, as Stripe's own libraries send them.
public struct StripeClient: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var apiURL: String
        public var secretKey: String

        public init(apiURL: String = "https://api.stripe.com", secretKey: String) {
            self.apiURL = apiURL
            self.secretKey = secretKey
        }

        /// Keys Stripe hands out for its test mode.
        public var isTestMode: Bool { secretKey.hasPrefix("sk_test_") || secretKey.hasPrefix("rk_test_") }
    }

    /// What Moim asks Checkout for: one line, one price, fixed here.
    public struct CheckoutRequest: Sendable {
        public var reference: String
        public var name: String
        public var amount: Int
        /// ISO 4217; sent in lower case, as Stripe writes it.
        public var currency: String
        public var successURL: String
        public var cancelURL: String
        public var email: String?
        public var locale: String
        public var expiresAt: Date

        public init(reference: String, name: String, amount: Int, currency: String, successURL: String, cancelURL: String,
                    email: String?, locale: String, expiresAt: Date) {
            self.reference = reference
            self.name = name
            self.amount = amount
            self.currency = currency
            self.successURL = successURL
            self.cancelURL = cancelURL
            self.email = email
            self.locale = locale
            self.expiresAt = expiresAt
        }
    }

    public let configuration: Configuration
    private let http: PaymentHTTP

    public init(_ configuration: Configuration, timeout: Int = 10, trustedCertificates: String? = nil) {
        self.configuration = configuration
        http = PaymentHTTP(baseURL: configuration.apiURL, timeout: timeout, trustedCertificates: trustedCertificates)
    }

    /// `POST /v1/checkout/sessions`; the same reference gives the same session (Stripe's
    /// idempotency key), so a double click opens one.
    public func createSession(_ request: CheckoutRequest) throws(PaymentAPIError) -> StripeSession {
        var form: [(String, String)] = [
            ("mode", "payment"),
            ("client_reference_id", request.reference),
            ("metadata[moim_payment]", request.reference),
            ("payment_intent_data[metadata][moim_payment]", request.reference),
            ("line_items[0][quantity]", "1"),
            ("line_items[0][price_data][currency]", request.currency.lowercased()),
            ("line_items[0][price_data][unit_amount]", String(request.amount)),
            ("line_items[0][price_data][product_data][name]", request.name),
            ("success_url", request.successURL),
            ("cancel_url", request.cancelURL),
            ("locale", request.locale),
            ("expires_at", String(UnixTime.seconds(request.expiresAt) ?? 0)),
        ]
        if let email = request.email { form.append(("customer_email", email)) }
        let body = try call("POST", "/v1/checkout/sessions", form: form, idempotencyKey: "moim-checkout-" + request.reference)
        return try StripeSession.parse(body)
    }

    /// `GET /v1/checkout/sessions/{id}`.
    public func session(id: String) throws(PaymentAPIError) -> StripeSession {
        try StripeSession.parse(try call("GET", "/v1/checkout/sessions/\(FormEncoding.encode(id))", form: nil))
    }

    /// `POST /v1/checkout/sessions/{id}/expire`: nobody can pay in it any more.
    public func expire(sessionID: String) throws(PaymentAPIError) -> StripeSession {
        try StripeSession.parse(try call("POST", "/v1/checkout/sessions/\(FormEncoding.encode(sessionID))/expire", form: []))
    }

    /// What has been given back of a PaymentIntent so far (`GET /v1/refunds`, pending or done).
    public func refunded(paymentIntent: String) throws(PaymentAPIError) -> Int {
        let body = try call("GET", "/v1/refunds?limit=100&payment_intent=\(FormEncoding.encode(paymentIntent))", form: nil)
        return try StripeSession.parseRefundTotal(body)
    }

    /// `POST /v1/refunds`: gives back `amount` (nil: all) of a PaymentIntent; `key` makes a
    /// retry of the same refund the same refund.
    public func refund(paymentIntent: String, amount: Int?, reason: String, key: String) throws(PaymentAPIError) -> ProviderRefund {
        var form = [("payment_intent", paymentIntent), ("metadata[reason]", String(reason.prefix(500)))]
        if let amount { form.append(("amount", String(amount))) }
        return try StripeSession.parseRefund(try call("POST", "/v1/refunds", form: form, idempotencyKey: key))
    }

    private func call(_ method: String, _ path: String, form: [(String, String)]?, idempotencyKey: String? = nil) throws(PaymentAPIError) -> [UInt8] {
        var headers = [("Authorization", "Bearer " + configuration.secretKey), ("Stripe-Version", "2024-06-20")]
        if form != nil { headers.append(("Content-Type", "application/x-www-form-urlencoded")) }
        if let idempotencyKey { headers.append(("Idempotency-Key", idempotencyKey)) }
        let body = form.map { $0.map { FormEncoding.encode($0.0) + "=" + FormEncoding.encode($0.1) }.joined(separator: "&") } ?? ""
        let answer = try http.send(method, path, headers: headers, body: Array(body.utf8))
        guard answer.status == 200 else { throw StripeSession.error(status: answer.status, answer.body) }
        return answer.body
    }
}

/// A Checkout Session, as much of it as Moim reads.
public struct StripeSession: Sendable, Equatable {
    public var id: String
    /// Where to send the browser; nil once the session is complete or expired.
    public var url: String?
    public var payment: ProviderPayment
    public var reference: String?
    public var paymentIntent: String?

    struct Answer: Decodable {
        let id: String
        let object: String
        let status: String?
        let payment_status: String
        let amount_total: Int?
        let currency: String?
        let url: String?
        let client_reference_id: String?
        let payment_intent: String?
    }

    struct RefundAnswer: Decodable {
        let id: String
        let object: String
        let amount: Int
        let status: String?
    }

    struct RefundList: Decodable {
        let data: [RefundAnswer]
    }

    struct ErrorAnswer: Decodable {
        struct Detail: Decodable {
            let type: String?
            let code: String?
            let message: String?
        }
        let error: Detail
    }

    /// A session object, from an API answer or a webhook event.
    public static func parse(_ body: [UInt8]) throws(PaymentAPIError) -> StripeSession {
        try session(PaymentHTTP.decode(Answer.self, body))
    }

    static func session(_ answer: Answer) throws(PaymentAPIError) -> StripeSession {
        guard answer.object == "checkout.session" else { throw .malformed("not a checkout session") }
        let amount = answer.amount_total ?? 0
        guard amount >= 0, let currency = answer.currency?.uppercased(), currency.utf8.count == 3 else { throw .malformed("amount or currency") }
        let status: ProviderPayment.Status
        switch (answer.status, answer.payment_status) {
        case ("complete", "paid"), (nil, "paid"): status = .paid
        case ("expired", _): status = .cancelled
        case ("complete", _): status = .pending  // an asynchronous payment not settled yet
        default: status = .pending
        }
        let payment = ProviderPayment(status: status, amount: status == .paid ? amount : 0, refunded: 0, currency: currency,
                                      transaction: answer.payment_intent)
        return StripeSession(id: answer.id, url: answer.url, payment: payment, reference: answer.client_reference_id, paymentIntent: answer.payment_intent)
    }

    static func parseRefund(_ body: [UInt8]) throws(PaymentAPIError) -> ProviderRefund {
        let refund = try PaymentHTTP.decode(RefundAnswer.self, body)
        guard refund.object == "refund", refund.amount > 0 else { throw .malformed("not a refund") }
        guard refund.status != "failed", refund.status != "canceled" else {
            throw .refused(status: 200, type: "refund_\(refund.status ?? "")", message: "the refund did not go through")
        }
        return ProviderRefund(id: refund.id, amount: refund.amount)
    }

    static func parseRefundTotal(_ body: [UInt8]) throws(PaymentAPIError) -> Int {
        var total = 0
        for refund in try PaymentHTTP.decode(RefundList.self, body).data where refund.status != "failed" && refund.status != "canceled" {
            guard refund.amount >= 0 else { throw .malformed("a negative refund") }
            let (sum, overflow) = total.addingReportingOverflow(refund.amount)
            guard !overflow else { throw .malformed("refunds beyond counting") }
            total = sum
        }
        return total
    }

    static func error(status: Int, _ body: [UInt8]) -> PaymentAPIError {
        if status >= 500 || status == 429 { return .unavailable("Stripe answered \(status)") }
        let detail = (try? PaymentHTTP.decode(ErrorAnswer.self, body))?.error
        return .refused(status: status, type: String((detail?.code ?? detail?.type ?? "unknown").prefix(60)),
                        message: String((detail?.message ?? "").prefix(300)))
    }
}
