import Foundation

/// Why a webhook was not believed.
public enum WebhookRefusal: Error, Equatable, CustomStringConvertible {
    case missingHeaders
    case badSignature
    case tooOld
    case tooNew
    case malformed(String)

    public var description: String {
        switch self {
        case .missingHeaders: "signature headers missing"
        case .badSignature: "no signature matches"
        case .tooOld: "timestamp more than 5 minutes old"
        case .tooNew: "timestamp more than 5 minutes ahead"
        case .malformed(let why): "malformed body: \(why)"
        }
    }

    /// Standard Webhooks' and Stripe's tolerance both ways.
    static let tolerance = 300

    static func checkTime(_ timestamp: Int, now: Date) throws(WebhookRefusal) {
        guard let seconds = UnixTime.seconds(now) else { throw .tooNew }
        if seconds - timestamp > tolerance { throw .tooOld }
        if timestamp - seconds > tolerance { throw .tooNew }
    }
}

/// A PortOne V2 webhook, signed by Standard Webhooks (`webhook-id`, `webhook-timestamp`,
/// `webhook-signature`: HMAC-SHA256 of "id.timestamp.body" with the base64 secret after
/// `whsec_`). It says only which payment changed; Moim asks the API what became of it.
public struct PortOneWebhook: Sendable, Equatable {
    public var type: String
    public var paymentID: String?
    public var storeID: String?

    struct Body: Decodable {
        struct Payload: Decodable {
            let paymentId: String?
            let storeId: String?
        }
        let type: String
        let data: Payload?
    }

    /// The webhook, if its signature is the secret's and its time within five minutes of `now`.
    public static func verify(secret: String, id: String?, timestamp: String?, signature: String?, body: [UInt8], now: Date = Date())
        throws(WebhookRefusal) -> PortOneWebhook
    {
        guard let id, let timestamp, let signature, !id.isEmpty else { throw .missingHeaders }
        guard let time = Signatures.timestamp(timestamp[...]) else { throw .badSignature }
        try WebhookRefusal.checkTime(time, now: now)
        let encoded = secret.hasPrefix("whsec_") ? String(secret.dropFirst(6)) : secret
        guard let key = Data(base64Encoded: encoded), !key.isEmpty else { throw .badSignature }
        let expected = Signatures.hmacSHA256(key: Array(key), message: Array("\(id).\(timestamp).".utf8) + body)
        let matches = signature.split(separator: " ").prefix(16).contains { candidate in
            let parts = candidate.split(separator: ",", maxSplits: 1)
            guard parts.count == 2, parts[0] == "v1", let given = Data(base64Encoded: String(parts[1])) else { return false }
            return Signatures.equal(Array(given), expected)
        }
        guard matches else { throw .badSignature }
        return try parse(body)
    }

    /// The body of a webhook whose signature was checked.
    public static func parse(_ body: [UInt8]) throws(WebhookRefusal) -> PortOneWebhook {
        guard let decoded = try? JSONDecoder().decode(Body.self, from: Data(body)) else { throw .malformed("not a PortOne webhook") }
        return PortOneWebhook(type: String(decoded.type.prefix(80)), paymentID: decoded.data?.paymentId, storeID: decoded.data?.storeId)
    }
}

/// A Stripe event, signed in `Stripe-Signature: t=…,v1=…` (HMAC-SHA256 of "t.body" with the
/// endpoint's secret). For Checkout's events the object is the session.
public struct StripeEvent: Sendable, Equatable {
    public var id: String
    public var type: String
    /// The Checkout Session the event is about, when it is about one.
    public var session: StripeSession?

    struct Body: Decodable {
        struct Payload: Decodable {
            let object: StripeSession.Answer?
        }
        let id: String
        let object: String
        let type: String
        let data: Payload
    }

    struct Envelope: Decodable {
        struct Payload: Decodable {
            struct Object: Decodable { let object: String? }
            let object: Object
        }
        let id: String
        let object: String
        let type: String
        let data: Payload
    }

    public static func verify(secret: String, header: String?, body: [UInt8], now: Date = Date()) throws(WebhookRefusal) -> StripeEvent {
        guard let header, !secret.isEmpty else { throw .missingHeaders }
        var time: Int?
        var signatures: [[UInt8]] = []
        for item in header.split(separator: ",").prefix(32) {
            let pair = item.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { time = Signatures.timestamp(pair[1]) }
            if pair[0] == "v1", let bytes = hexBytes(pair[1]) { signatures.append(bytes) }
        }
        guard let time, !signatures.isEmpty else { throw .missingHeaders }
        let expected = Signatures.hmacSHA256(key: Array(secret.utf8), message: Array("\(time).".utf8) + body)
        guard signatures.contains(where: { Signatures.equal($0, expected) }) else { throw .badSignature }
        try WebhookRefusal.checkTime(time, now: now)
        return try parse(body)
    }

    /// An event whose signature was checked; a session only for `checkout.session.*` events.
    public static func parse(_ body: [UInt8]) throws(WebhookRefusal) -> StripeEvent {
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(body)), envelope.object == "event" else {
            throw .malformed("not a Stripe event")
        }
        var event = StripeEvent(id: String(envelope.id.prefix(100)), type: String(envelope.type.prefix(100)), session: nil)
        if envelope.data.object.object == "checkout.session" {
            guard let full = try? JSONDecoder().decode(Body.self, from: Data(body)), let answer = full.data.object,
                  let session = try? StripeSession.session(answer) else { throw .malformed("a checkout event without its session") }
            event.session = session
        }
        return event
    }

    static func hexBytes(_ text: Substring) -> [UInt8]? {
        guard text.utf8.count == 64 else { return nil }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
