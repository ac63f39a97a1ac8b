import ArgumentParser
import Foundation
import Network
import Web

/// `moim serve`'s payment providers: PortOne V2 and Stripe Checkout, by flags, their
/// environment twins, or one JSON file (a field given two ways is an error).
struct PaymentOptions: ParsableArguments {
    @Option(name: .customLong("portone-store-id"), help: "PortOne V2 store id, store-… (env MOIM_PORTONE_STORE_ID).")
    var portOneStoreID: String?
    @Option(name: .customLong("portone-channel-key"), help: "The PortOne channel members pay through (KG Inicis, NICE, KakaoPay…) (env MOIM_PORTONE_CHANNEL_KEY).")
    var portOneChannelKey: String?
    @Option(name: .customLong("portone-api-secret"), help: "PortOne V2 API secret (env MOIM_PORTONE_API_SECRET).")
    var portOneAPISecret: String?
    @Option(name: .customLong("portone-webhook-secret"), help: "PortOne webhook secret, whsec_… (env MOIM_PORTONE_WEBHOOK_SECRET).")
    var portOneWebhookSecret: String?
    @Option(name: .customLong("portone-api-url"), help: "PortOne's API (env MOIM_PORTONE_API_URL; default https://api.portone.io).")
    var portOneAPIURL: String?
    @Option(name: .customLong("portone-sdk-url"), help: "PortOne's browser SDK (env MOIM_PORTONE_SDK_URL; default https://cdn.portone.io/v2/browser-sdk.js).")
    var portOneSDKURL: String?
    @Option(name: .customLong("portone-easy-pay"), help: "Easy-pay buttons beside cards, comma-separated: KAKAOPAY,TOSSPAY,NAVERPAY (env MOIM_PORTONE_EASY_PAY).")
    var portOneEasyPay: String?
    @Flag(name: .customLong("portone-test-mode"), help: "The PortOne channel is a test channel: pages say no real money moves (env MOIM_PORTONE_TEST_MODE=1).")
    var portOneTestMode = Environment.value("MOIM_PORTONE_TEST_MODE") == "1"
    @Option(name: .customLong("stripe-secret-key"), help: "Stripe secret key, sk_live_… or sk_test_… (env MOIM_STRIPE_SECRET_KEY).")
    var stripeSecretKey: String?
    @Option(name: .customLong("stripe-webhook-secret"), help: "The Stripe webhook endpoint's signing secret, whsec_… (env MOIM_STRIPE_WEBHOOK_SECRET).")
    var stripeWebhookSecret: String?
    @Option(name: .customLong("stripe-api-url"), help: "Stripe's API (env MOIM_STRIPE_API_URL; default https://api.stripe.com).")
    var stripeAPIURL: String?
    @Option(name: .customLong("payments-file"), help: "The providers above from one JSON file (env MOIM_PAYMENTS_FILE); see the README.")
    var paymentsFile: String?

    /// The providers configured, checked; nil when none is.
    func configuration() throws -> PaymentsConfiguration? {
        var fields = try paymentsFile.map(Self.read) ?? (Environment.value("MOIM_PAYMENTS_FILE").map(Self.read) ?? [:])
        let flags: [(String, String?, String)] = [
            ("portone.store_id", portOneStoreID, "MOIM_PORTONE_STORE_ID"), ("portone.channel_key", portOneChannelKey, "MOIM_PORTONE_CHANNEL_KEY"),
            ("portone.api_secret", portOneAPISecret, "MOIM_PORTONE_API_SECRET"), ("portone.webhook_secret", portOneWebhookSecret, "MOIM_PORTONE_WEBHOOK_SECRET"),
            ("portone.api_url", portOneAPIURL, "MOIM_PORTONE_API_URL"), ("portone.sdk_url", portOneSDKURL, "MOIM_PORTONE_SDK_URL"),
            ("portone.easy_pay", portOneEasyPay, "MOIM_PORTONE_EASY_PAY"),
            ("stripe.secret_key", stripeSecretKey, "MOIM_STRIPE_SECRET_KEY"), ("stripe.webhook_secret", stripeWebhookSecret, "MOIM_STRIPE_WEBHOOK_SECRET"),
            ("stripe.api_url", stripeAPIURL, "MOIM_STRIPE_API_URL"),
        ]
        for (name, flag, environment) in flags {
            guard let value = flag ?? Environment.value(environment) else { continue }
            guard fields[name] == nil else { throw ValidationError("\(name) is given both in --payments-file and by a flag: keep one.") }
            fields[name] = value
        }
        if portOneTestMode { fields["portone.test_mode"] = "true" }
        var payments = PaymentsConfiguration()
        payments.portOne = try portOne(fields)
        payments.stripe = try stripe(fields)
        return payments.portOne == nil && payments.stripe == nil ? nil : payments
    }

    private func portOne(_ fields: [String: String]) throws -> PortOneSettings? {
        let names = ["store_id", "channel_key", "api_secret", "webhook_secret"]
        let given = names.filter { fields["portone." + $0] != nil }
        guard !given.isEmpty || fields["portone.api_url"] != nil else { return nil }
        guard given.count == names.count, let store = fields["portone.store_id"], let channel = fields["portone.channel_key"],
              let secret = fields["portone.api_secret"], let webhook = fields["portone.webhook_secret"] else {
            throw ValidationError("PortOne needs all four of --portone-store-id, --portone-channel-key, --portone-api-secret and --portone-webhook-secret.")
        }
        guard Data(base64Encoded: webhook.hasPrefix("whsec_") ? String(webhook.dropFirst(6)) : webhook) != nil else {
            throw ValidationError("--portone-webhook-secret must be the whsec_… secret PortOne's console shows (base64 after the prefix).")
        }
        let apiURL = fields["portone.api_url"] ?? "https://api.portone.io"
        guard HTTPEndpoint.split(apiURL) != nil else { throw ValidationError("--portone-api-url must be an http(s) URL.") }
        var settings = PortOneSettings(client: .init(apiURL: apiURL, apiSecret: secret, storeID: store), channelKey: channel, webhookSecret: webhook)
        if let sdk = fields["portone.sdk_url"] {
            guard HTTPEndpoint.split(sdk) != nil else { throw ValidationError("--portone-sdk-url must be an http(s) URL.") }
            settings.sdkURL = sdk
        }
        let easyPay = (fields["portone.easy_pay"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
        guard easyPay.allSatisfy(["KAKAOPAY", "TOSSPAY", "NAVERPAY"].contains) else {
            throw ValidationError("--portone-easy-pay takes KAKAOPAY, TOSSPAY and NAVERPAY, comma-separated.")
        }
        settings.easyPay = easyPay
        settings.testMode = fields["portone.test_mode"] == "true"
        return settings
    }

    private func stripe(_ fields: [String: String]) throws -> StripeSettings? {
        guard fields["stripe.secret_key"] != nil || fields["stripe.webhook_secret"] != nil else { return nil }
        guard let key = fields["stripe.secret_key"], let webhook = fields["stripe.webhook_secret"] else {
            throw ValidationError("Stripe needs both --stripe-secret-key and --stripe-webhook-secret.")
        }
        let apiURL = fields["stripe.api_url"] ?? "https://api.stripe.com"
        guard HTTPEndpoint.split(apiURL) != nil else { throw ValidationError("--stripe-api-url must be an http(s) URL.") }
        return StripeSettings(client: .init(apiURL: apiURL, secretKey: key), webhookSecret: webhook)
    }

    /// `{"portone": {"store_id": …}, "stripe": {…}}` flattened to `portone.store_id`.
    static func read(_ path: String) throws -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ValidationError("--payments-file \(path) is not a JSON object.")
        }
        var fields: [String: String] = [:]
        for (provider, value) in json {
            guard ["portone", "stripe"].contains(provider), let object = value as? [String: Any] else {
                throw ValidationError("--payments-file: \(provider) is not a provider Moim knows (portone, stripe).")
            }
            for (name, field) in object {
                switch field {
                case let text as String: fields["\(provider).\(name)"] = text
                case let list as [String]: fields["\(provider).\(name)"] = list.joined(separator: ",")
                case let flag as Bool: fields["\(provider).\(name)"] = flag ? "true" : "false"
                default: throw ValidationError("--payments-file: \(provider).\(name) must be text.")
                }
            }
        }
        return fields
    }
}
