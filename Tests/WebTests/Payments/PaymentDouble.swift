import Foundation
import HTTP
import Network
import TestSupport
@testable import Web

/// PortOne's and Stripe's APIs stood in for on loopback (`Tests/Doubles/payment-providers`), every answer
/// checked by the providers' own SDKs before it leaves, every webhook signed by their libraries.
final class PaymentDouble {
    let url: String
    private let folder = NSTemporaryDirectory() + "moim-payments-\(UUID().uuidString)"

    static let storeID = "store-00000000-0000-0000-0000-000000000001"
    static let portOneWebhookSecret = "whsec_" + Data("moim-portone-webhook-secret-32by".utf8).base64EncodedString()
    static let stripeWebhookSecret = "whsec_moim_stripe_test"

    init() throws {
        url = try runTool(TestSite.root + "/Tests/Doubles/payment-providers", ["start", folder], timeout: 300).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit { _ = try? runTool(TestSite.root + "/Tests/Doubles/payment-providers", ["stop", folder]) }

    /// Both providers pointed at the double; PortOne's test window is its stand-in script.
    var configuration: PaymentsConfiguration {
        var portOne = PortOneSettings(client: .init(apiURL: url, apiSecret: "portone-test-secret", storeID: Self.storeID),
                                      channelKey: "channel-key-test", webhookSecret: Self.portOneWebhookSecret)
        portOne.sdkURL = url + "/browser-sdk.js"
        portOne.easyPay = ["KAKAOPAY"]
        portOne.testMode = true
        let stripe = StripeSettings(client: .init(apiURL: url, secretKey: "sk_test_moim"), webhookSecret: Self.stripeWebhookSecret)
        var payments = PaymentsConfiguration(portOne: portOne, stripe: stripe)
        payments.timeout = 3
        return payments
    }

    /// A form posted to the double (its window or checkout page): where it sends the browser.
    func submit(_ path: String, _ fields: [(String, String)] = []) throws -> String {
        let data = fields.flatMap { ["--data-urlencode", "\($0.0)=\($0.1)"] }
        return try runTool("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{redirect_url}", "-X", "POST"] + data + [url + path]).output
    }

    /// PortOne's window: the member pays (or cancels) what the page asked for.
    func portOneWindow(paymentID: String, amount: Int, returnURL: String, pay: Bool = true) throws -> String {
        try submit(pay ? "/_window/pay" : "/_window/cancel", [
            ("paymentId", paymentID), ("storeId", Self.storeID), ("totalAmount", String(amount)), ("currency", "KRW"), ("redirectUrl", returnURL),
        ])
    }

    @discardableResult
    func control(_ path: String, _ json: String) throws -> [String: Any] {
        let output = try runTool("/usr/bin/curl", ["-s", "-X", "POST", "--data-binary", json, url + "/_control/" + path]).output
        return (try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]) ?? [:]
    }

    func get(_ path: String, authorization: String) throws -> [String: Any] {
        let output = try runTool("/usr/bin/curl", ["-s", "-H", "Authorization: " + authorization, url + path]).output
        return (try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]) ?? [:]
    }

    /// What Moim sent the double, and any answer of the double an SDK refused (none, or the test fails).
    func requests() throws -> (requests: [[String: Any]], refusals: [String]) {
        let output = try runTool("/usr/bin/curl", ["-s", url + "/_control/requests"]).output
        let json = (try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]) ?? [:]
        return (json["requests"] as? [[String: Any]] ?? [], json["sdk_refusals"] as? [String] ?? [])
    }

    /// Headers a provider's library signs `payload` with (at `timestamp`, default now).
    func sign(_ provider: String, _ payload: String, timestamp: Int? = nil) throws -> [(String, String)] {
        var request: [String: Any] = ["provider": provider, "payload": payload]
        if let timestamp { request["timestamp"] = timestamp }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self)
        return try control("sign", json).map { ($0.key, "\($0.value)") }
    }
}

extension Browser {
    /// A provider's server posting to Moim: a raw body, no cookies, no CSRF token.
    func webhook(_ target: String, body: String, headers: [(String, String)]) -> HTTPResponse {
        var request = HTTPRequest(method: .post, target: target, body: Array(body.utf8))
        request.headers.add("content-type", "application/json")
        request.headers.add("host", "moim.test")
        for (name, value) in headers { request.headers.add(name.lowercased(), value) }
        return app.handle(request)
    }
}
