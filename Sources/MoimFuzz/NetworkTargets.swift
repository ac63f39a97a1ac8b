import Foundation
@testable import Network

enum NetworkTargets {
    /// A passkey's CBOR (an attestation object, a COSE key), any bytes: an item or an error,
    /// never a trap; a key read from it is one OpenSSL took.
    static func cbor(_ bytes: UnsafeBufferPointer<UInt8>) {
        let input = Array(bytes)
        guard (try? CBOR.decode(input[...])) != nil else { return }
        if let key = try? PasskeyKey(cose: input) {
            _ = key.verifies(Array(input.prefix(64)), of: input)
        }
    }

    /// An authenticator's data, any bytes: read or refused, never a trap; a credential read
    /// from it lies within the input.
    static func authenticatorData(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let data = try? AuthenticatorData(Array(bytes)) else { return }
        if let id = data.credentialID, id.count > bytes.count { violated("a credential id longer than the input") }
        if let key = data.publicKey, key.count > bytes.count { violated("a key longer than the input") }
    }

    /// What an object store answers, and the settings that name one: a response is refused or
    /// read within its bytes (a body by Content-Length is exactly that long), a listing's
    /// keys are no more than its `<Key>` elements, and a store's address or bucket that is
    /// accepted can never break a request line or header.
    static func objectStoreAnswer(_ bytes: UnsafeBufferPointer<UInt8>) {
        let input = Array(bytes)
        for method in ["GET", "HEAD"] {
            guard let answer = try? HTTPClientResponse(parsing: input, toA: method) else { continue }
            guard (0...999).contains(answer.status), answer.body.count <= input.count else { violated("a response larger than its bytes") }
            if method == "HEAD", !answer.body.isEmpty { violated("a body in the answer to HEAD") }
            if method == "GET", answer.header("transfer-encoding") == nil, let length = answer.header("content-length"),
               ![204, 304].contains(answer.status), !(100..<200).contains(answer.status), answer.body.count != Int(length) {
                violated("a body of another length than Content-Length")
            }
        }

        let text = String(decoding: input, as: UTF8.self)
        let page = S3ListPage(xml: text)
        guard page.keys.count <= text.components(separatedBy: "<Key>").count - 1 else { violated("more keys than <Key> elements") }

        let unsafe: (Character) -> Bool = { $0.isNewline || $0 == " " || $0 == "\0" || $0 == "/" || $0 == "@" }
        if let endpoint = HTTPEndpoint(text), endpoint.hostHeader.contains(where: unsafe) || !(1...65_535).contains(endpoint.port) {
            violated("an endpoint that breaks the Host header")
        }
        if let location = S3Location(url: text) {
            guard !location.bucket.contains(where: unsafe), !location.prefix.contains(where: \.isNewline),
                  location.prefix.isEmpty || location.prefix.hasSuffix("/")
            else { violated("a bucket or prefix that breaks a request") }
            // Every key it makes signs and encodes without trapping.
            let path = "/" + location.bucket + "/" + location.prefix + "x.jpg"
            guard !S3Signer.encodedPath(path).contains(where: { $0.isNewline || $0 == " " }) else { violated("an encoded path with a space") }
        }
    }
}

extension NetworkTargets {
    /// What a sign-in provider sends back: a key set, an ID token and a profile. The input
    /// is split at its first two NUL bytes into the three. A token is never accepted unless
    /// signed by a key of the set (with an empty set, never), and a profile read gives a
    /// subject the database can hold and never an address taken as verified.
    static func signInAnswer(_ bytes: UnsafeBufferPointer<UInt8>) {
        let parts = Array(bytes).split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).map(Array.init)
        let keys = JSONWebKey.set(parts.first ?? [])
        let token = String(decoding: parts.count > 1 ? parts[1] : [], as: UTF8.self)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        if (try? IDToken(verifying: token, keys: [], issuer: "https://id.example", clientID: "moim", nonce: "n", now: now)) != nil {
            violated("a token accepted without any key")
        }
        _ = try? IDToken(verifying: token, keys: keys, issuer: "https://id.example", clientID: "moim", nonce: "n", now: now)
        if let identity = try? ProfileReading.naver.identity(parts.count > 2 ? parts[2] : Array(bytes)) {
            guard (1...255).contains(identity.subject.utf8.count) else { violated("a subject the database cannot hold") }
            guard !identity.emailVerified else { violated("an OAuth profile's address taken as verified") }
        }
    }
}

extension NetworkTargets {
    /// What a payment provider's API answers: every answer is read or refused, never trapped
    /// on; an amount read is never negative, and never more refunded than paid.
    static func paymentAnswer(_ bytes: UnsafeBufferPointer<UInt8>) {
        let input = Array(bytes)
        if let payment = try? PortOnePayment.parse(input) {
            guard payment.amount >= 0, payment.refunded >= 0, payment.refunded <= payment.amount || payment.status != .paid else {
                violated("a PortOne payment with a negative amount or more refunded than paid")
            }
        }
        if let refund = try? PortOnePayment.parseCancellation(input), refund.amount <= 0 { violated("a cancellation of nothing") }
        if let session = try? StripeSession.parse(input) {
            guard session.payment.amount >= 0, session.payment.currency.utf8.count == 3 else { violated("a session with a negative amount") }
        }
        if let refund = try? StripeSession.parseRefund(input), refund.amount <= 0 { violated("a refund of nothing") }
        if let total = try? StripeSession.parseRefundTotal(input), total < 0 { violated("a negative refund total") }
        _ = PortOnePayment.error(status: 400, input)
        _ = StripeSession.error(status: 400, input)
    }

    /// A webhook as a provider's server posts it. The input is split at its first NUL into
    /// the signature header and the body: a signature made without the secret never passes,
    /// and a body is read or refused, never trapped on.
    static func paymentWebhook(_ bytes: UnsafeBufferPointer<UInt8>) {
        let parts = Array(bytes).split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false).map(Array.init)
        let header = String(decoding: parts.first ?? [], as: UTF8.self)
        let body = parts.count > 1 ? parts[1] : []
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let secret = "whsec_" + Data("fuzzing-secret-that-nobody-knows".utf8).base64EncodedString()
        if (try? PortOneWebhook.verify(secret: secret, id: "msg", timestamp: "1800000000", signature: header, body: body, now: now)) != nil {
            violated("a PortOne webhook accepted without the secret")
        }
        if (try? StripeEvent.verify(secret: secret, header: header, body: body, now: now)) != nil {
            violated("a Stripe event accepted without the secret")
        }
        _ = try? PortOneWebhook.parse(body)
        _ = try? StripeEvent.parse(body)
    }
}
