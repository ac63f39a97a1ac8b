import Foundation

/// PortOne V2's REST API, as its own server SDK (`portone-server-sdk`) calls it: the secret in
/// `Authorization: PortOne …`, the store in every call, JSON both ways.
public struct PortOneClient: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var apiURL: String
        public var apiSecret: String
        public var storeID: String

        public init(apiURL: String = "https://api.portone.io", apiSecret: String, storeID: String) {
            self.apiURL = apiURL
            self.apiSecret = apiSecret
            self.storeID = storeID
        }
    }

    public let configuration: Configuration
    private let http: PaymentHTTP

    public init(_ configuration: Configuration, timeout: Int = 10, trustedCertificates: String? = nil) {
        self.configuration = configuration
        http = PaymentHTTP(baseURL: configuration.apiURL, timeout: timeout, trustedCertificates: trustedCertificates)
    }

    /// `POST /payments/{id}/pre-register`: fixes the amount before the window opens, so a
    /// browser that changes it cannot pay less.
    public func preRegister(paymentID: String, amount: Int, currency: String) throws(PaymentAPIError) {
        let body = ["storeId": JSONText.string(configuration.storeID), "totalAmount": .integer(amount), "currency": .string(currency)]
        _ = try call("POST", "/payments/\(Self.escape(paymentID))/pre-register", body: JSONText.object(body))
    }

    /// `GET /payments/{id}`: the payment as PortOne has it.
    public func payment(id: String) throws(PaymentAPIError) -> ProviderPayment {
        let answer = try call("GET", "/payments/\(Self.escape(id))?storeId=\(Self.escape(configuration.storeID))", body: nil)
        return try PortOnePayment.parse(answer)
    }

    /// `POST /payments/{id}/cancel`: gives back `amount` (nil: all that is left), for `reason`.
    public func cancel(paymentID: String, amount: Int?, reason: String) throws(PaymentAPIError) -> ProviderRefund {
        var body: [String: JSONText] = ["storeId": .string(configuration.storeID), "reason": .string(reason)]
        if let amount { body["amount"] = .integer(amount) }
        let answer = try call("POST", "/payments/\(Self.escape(paymentID))/cancel", body: .object(body))
        return try PortOnePayment.parseCancellation(answer)
    }

    private func call(_ method: String, _ path: String, body: JSONText?) throws(PaymentAPIError) -> [UInt8] {
        var headers = [("Authorization", "PortOne " + configuration.apiSecret)]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        let answer = try http.send(method, path, headers: headers, body: body.map { Array($0.rendered.utf8) } ?? [])
        guard answer.status == 200 else { throw PortOnePayment.error(status: answer.status, answer.body) }
        return answer.body
    }

    /// Percent-encodes a path segment or query value (RFC 3986 unreserved characters stay).
    static func escape(_ text: String) -> String { FormEncoding.encode(text) }
}

/// PortOne's answers, read into what Moim needs. Unknown fields are ignored, as the SDK does.
public enum PortOnePayment {
    struct Answer: Decodable {
        struct Amount: Decodable {
            let total: Int
            let paid: Int
            let cancelled: Int
        }
        struct Failure: Decodable {
            let reason: String?
            let pgMessage: String?
        }
        let status: String
        let id: String
        let storeId: String?
        let transactionId: String?
        let amount: Amount
        let currency: String
        let failure: Failure?
    }

    struct CancellationAnswer: Decodable {
        struct Cancellation: Decodable {
            let status: String
            let id: String
            let totalAmount: Int
            let reason: String?
        }
        let cancellation: Cancellation
    }

    struct ErrorAnswer: Decodable {
        let type: String?
        let message: String?
    }

    /// A `GET /payments/{id}` answer.
    public static func parse(_ body: [UInt8]) throws(PaymentAPIError) -> ProviderPayment {
        let answer = try PaymentHTTP.decode(Answer.self, body)
        let amount = answer.amount
        guard amount.paid >= 0, amount.cancelled >= 0, amount.total >= 0, amount.cancelled <= amount.paid, answer.currency.utf8.count == 3 else {
            throw .malformed("amounts out of range")
        }
        let status: ProviderPayment.Status
        switch answer.status {
        case "PAID", "PARTIAL_CANCELLED": status = .paid
        case "CANCELLED": status = .cancelled
        case "FAILED": status = .failed(String((answer.failure?.reason ?? answer.failure?.pgMessage ?? "failed").prefix(200)))
        case "READY", "PAY_PENDING", "VIRTUAL_ACCOUNT_ISSUED": status = .pending
        default: throw .malformed("unknown status \(answer.status.prefix(40))")
        }
        return ProviderPayment(status: status, amount: status == .paid || status == .cancelled ? amount.paid : 0,
                               refunded: amount.cancelled, currency: answer.currency, store: answer.storeId, transaction: answer.transactionId)
    }

    /// A `POST /payments/{id}/cancel` answer: the cancellation, which must have succeeded.
    public static func parseCancellation(_ body: [UInt8]) throws(PaymentAPIError) -> ProviderRefund {
        let cancellation = try PaymentHTTP.decode(CancellationAnswer.self, body).cancellation
        guard cancellation.totalAmount > 0 else { throw .malformed("a cancellation of nothing") }
        guard cancellation.status == "SUCCEEDED" else {
            throw .refused(status: 200, type: "CANCELLATION_\(cancellation.status.prefix(20))", message: cancellation.reason ?? "")
        }
        return ProviderRefund(id: cancellation.id, amount: cancellation.totalAmount)
    }

    static func error(status: Int, _ body: [UInt8]) -> PaymentAPIError {
        if status >= 500 || status == 429 { return .unavailable("PortOne answered \(status)") }
        let answer = try? PaymentHTTP.decode(ErrorAnswer.self, body)
        return .refused(status: status, type: String((answer?.type ?? "UNKNOWN").prefix(60)), message: String((answer?.message ?? "").prefix(300)))
    }
}
