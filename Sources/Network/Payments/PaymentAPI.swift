import COpenSSL
import Foundation

/// Why a payment provider's API gave no usable answer.
public enum PaymentAPIError: Error, Equatable, CustomStringConvertible {
    /// It could not be reached, or did not answer in time: try again later.
    case unavailable(String)
    /// It answered with an error of its own (a refusal, an unknown payment).
    case refused(status: Int, type: String, message: String)
    /// It answered something that is not the documented shape.
    case malformed(String)

    public var description: String {
        switch self {
        case .unavailable(let why): "unreachable: \(why)"
        case .refused(let status, let type, let message): "refused (\(status) \(type)): \(message)"
        case .malformed(let why): "malformed answer: \(why)"
        }
    }

    /// The provider knows no such payment.
    public var isNotFound: Bool {
        if case .refused(let status, _, _) = self { return status == 404 }
        return false
    }
}

/// A payment as its provider reports it, in the currency's minor unit (won, cents).
public struct ProviderPayment: Sendable, Equatable {
    public enum Status: Sendable, Equatable {
        /// Not paid yet: the window is open, or a bank transfer is awaited.
        case pending
        /// Money was taken: `amount` of `currency`, of which `refunded` was given back since.
        case paid
        /// The attempt failed (a declined card, a timeout at the bank).
        case failed(String)
        /// Closed without money changing hands, or every won given back.
        case cancelled
    }

    public var status: Status
    public var amount: Int
    public var refunded: Int
    /// ISO 4217, upper case.
    public var currency: String
    /// The store or account the payment belongs to, where the provider says.
    public var store: String?
    /// The provider's own id for the money taken (PortOne's transaction, Stripe's PaymentIntent).
    public var transaction: String?

    public init(status: Status, amount: Int, refunded: Int, currency: String, store: String? = nil, transaction: String? = nil) {
        self.status = status
        self.amount = amount
        self.refunded = refunded
        self.currency = currency
        self.store = store
        self.transaction = transaction
    }
}

/// A refund a provider made: its id, and how much it gave back.
public struct ProviderRefund: Sendable, Equatable {
    public var id: String
    public var amount: Int
}

/// A small JSON client for a payment provider's REST API: one request per connection, every
/// wait bounded, every answer at most 1 MiB.
struct PaymentHTTP: Sendable {
    let baseURL: String
    let timeout: Int
    let trustedCertificates: String?

    /// Sends `body` to `path` (already percent-encoded) and gives back the status and body.
    func send(_ method: String, _ path: String, headers: [(String, String)], body: [UInt8] = []) throws(PaymentAPIError) -> (status: Int, body: [UInt8]) {
        guard let (endpoint, prefix) = HTTPEndpoint.split(baseURL) else { throw .unavailable("\(baseURL) is not an http(s) URL") }
        let base = prefix == "/" ? "" : (prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix)
        let client = HTTPClient(endpoint: endpoint, timeout: timeout, trustedCertificates: trustedCertificates)
        do {
            let answer = try client.send(method, base + path, headers: headers + [("Accept", "application/json"), ("User-Agent", "Moim")],
                                         body: body, maximumBodySize: 1 << 20)
            return (answer.status, answer.body)
        } catch {
            throw .unavailable(error.description)
        }
    }

    /// Decodes a JSON answer; anything else is `malformed`.
    static func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8]) throws(PaymentAPIError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(body))
        } catch {
            throw .malformed("\(T.self): \(String(describing: error).prefix(200))")
        }
    }
}

/// Webhook signatures compared in constant time.
enum Signatures {
    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        HMAC(EVP_sha256(), key, Int32(clamping: key.count), message, message.count, &digest, &length)
        return Array(digest.prefix(Int(length)))
    }

    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && CRYPTO_memcmp(a, b, a.count) == 0
    }

    /// A decimal Unix time of at most 12 digits, else nil.
    static func timestamp(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 12, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }
}
