import Foundation
import HTTP
import Network
import Storage

/// The seam every payment provider plugs into: handlers know only this. A third provider
/// (Toss Payments direct, say) is one more conformance and one more line in `PaymentProviders`.
protocol PaymentProvider: Sendable {
    /// Stored with each payment and in the webhook's address: `portone`, `stripe`.
    var id: String { get }
    /// The name on its button and in the ledger.
    var name: String { get }
    /// Test keys: every page says no real money moves.
    var isTestMode: Bool { get }
    /// Where this provider's page lives, for the pay page's `form-action` (nil: on Moim's own page).
    var checkoutOrigin: String? { get }
    func accepts(currency: String) -> Bool

    /// Readies the provider before the browser goes there: the amount is fixed here, never
    /// in the browser.
    func prepare(_ payment: Payment, returnURL: String, cancelURL: String, payer: User, language: Language) throws(PaymentAPIError) -> Checkout
    /// What the provider says became of the payment, in the currency's minor unit.
    func lookup(_ payment: Payment) throws(PaymentAPIError) -> ProviderPayment
    /// Closes an attempt nobody finished, where the provider can (no payment can follow).
    func expire(_ payment: Payment) throws(PaymentAPIError)
    /// Gives back `amount` minor units (nil: all that is left); `key` names this refund, so that a retry is the same refund.
    func refund(_ payment: Payment, amount: Int?, reason: String, key: String) throws(PaymentAPIError) -> ProviderRefund
    /// The payment a signed webhook is about; refused when the signature or time is wrong.
    func webhook(_ request: HTTPRequest, now: Date) throws(WebhookRefusal) -> WebhookNotice
}

/// Where the browser goes once the provider is ready.
enum Checkout: Sendable {
    /// Straight to the provider's own page (Stripe Checkout), known there as `reference`.
    case redirect(url: String, reference: String)
    /// Moim's page that opens the provider's window by its browser SDK (PortOne).
    case window
}

/// What a verified webhook points at.
enum WebhookNotice: Sendable, Equatable {
    /// By Moim's own id (PortOne's paymentId).
    case payment(String)
    /// By the provider's id (a Checkout Session).
    case reference(String)
    /// An event Moim does not act on (its type, for the log).
    case ignored(String)
}

/// Amounts: Moim keeps whole units of the crew's currency (won, dollars); providers take the
/// minor unit (won, cents). Both ways checked: no overflow, no fraction dropped silently.
enum Money {
    static func minorPerUnit(_ currency: String) -> Int {
        switch currency {
        case "KRW", "JPY": 1
        default: 100
        }
    }

    static func minor(_ amount: Int, _ currency: String) -> Int? {
        let (value, overflow) = amount.multipliedReportingOverflow(by: minorPerUnit(currency))
        return overflow ? nil : value
    }

    /// Whole units in `minor`, rounded down (a stray cent never makes a member).
    static func whole(_ minor: Int, _ currency: String) -> Int {
        minor / minorPerUnit(currency)
    }
}

/// The providers this site was configured with.
struct PaymentProviders: Sendable {
    let all: [any PaymentProvider]

    init(_ configuration: PaymentsConfiguration?) {
        var all: [any PaymentProvider] = []
        if let portOne = configuration?.portOne { all.append(PortOneProvider(portOne, timeout: configuration?.timeout ?? 10)) }
        if let stripe = configuration?.stripe { all.append(StripeProvider(stripe, timeout: configuration?.timeout ?? 10)) }
        self.all = all
    }

    var isEmpty: Bool { all.isEmpty }
    var isTestMode: Bool { all.contains { $0.isTestMode } }

    func provider(_ id: String) -> (any PaymentProvider)? {
        all.first { $0.id == id }
    }

    func providers(for currency: String) -> [any PaymentProvider] {
        all.filter { $0.accepts(currency: currency) }
    }
}

/// How the site reaches its payment providers.
public struct PaymentsConfiguration: Sendable {
    public var portOne: PortOneSettings?
    public var stripe: StripeSettings?
    /// Seconds to wait for a provider's answer.
    public var timeout = 10
    /// How long an attempt stays open before the sweep closes it.
    public var attemptLifetime: TimeInterval = 3_600

    public init(portOne: PortOneSettings? = nil, stripe: StripeSettings? = nil) {
        self.portOne = portOne
        self.stripe = stripe
    }
}

public struct PortOneSettings: Sendable {
    public var client: PortOneClient.Configuration
    public var channelKey: String
    public var webhookSecret: String
    /// PortOne's browser SDK; browsers load it from PortOne's CDN.
    public var sdkURL = "https://cdn.portone.io/v2/browser-sdk.js"
    /// Easy-pay buttons offered beside cards (KAKAOPAY, TOSSPAY, NAVERPAY), as the channel allows.
    public var easyPay: [String] = []
    /// The operator says these are test keys (PortOne's keys do not say so themselves).
    public var testMode = false

    public init(client: PortOneClient.Configuration, channelKey: String, webhookSecret: String) {
        self.client = client
        self.channelKey = channelKey
        self.webhookSecret = webhookSecret
    }
}

public struct StripeSettings: Sendable {
    public var client: StripeClient.Configuration
    public var webhookSecret: String

    public init(client: StripeClient.Configuration, webhookSecret: String) {
        self.client = client
        self.webhookSecret = webhookSecret
    }
}
