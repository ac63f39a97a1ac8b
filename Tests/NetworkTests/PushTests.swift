import Foundation
import Testing
import TestSupport
@testable import Network

/// Web Push against a push service on loopback (`Tests/Doubles/push-service`) that verifies the VAPID token
/// with `cryptography`'s ES256 and decrypts with `http_ece`, as real push services do.
@Suite(.serialized) struct PushTests {
    @Test func aMessageIsSignedAndEncryptedSoThatAPushServiceAndTheBrowserReadIt() throws {
        let service = try TestPushService()
        let browser = try service.subscribe()
        let subscription = try PushSubscription(endpoint: browser.endpoint, p256dh: browser.p256dh, auth: browser.auth, allowedHosts: ["127.0.0.1"])
        let key = try #require(P256Key.generate())
        // The key survives being kept: the same public half after a round trip through its DER.
        let kept = try #require(P256Key(privateKey: key.privateKey))
        #expect(kept.publicKey == key.publicKey)
        let client = PushClient(vapid: VAPID(key: kept, subject: "mailto:admin@moim.test"), timeout: 3, allowedHosts: ["127.0.0.1"])
        let text = #"{"title":"Mina accepted you","body":"Dawn 10K, 한강 ✓","url":"/meetups/7"}"#
        let outcome = client.send(PushMessage(payload: Array(text.utf8), timeToLive: 3_600, urgency: .high, topic: "meetup-7-talk"), to: subscription)
        #expect(outcome == .delivered)
        let (delivered, refused) = try service.messages()
        #expect(refused.isEmpty, "\(refused)")
        let message = try #require(delivered.first)
        #expect(message["payload"] as? String == text)
        #expect(message["ttl"] as? Int == 3_600 && message["urgency"] as? String == "high" && message["topic"] as? String == "meetup-7-talk")
        #expect(message["vapid_key"] as? String == Base64URL.encode(key.publicKey))
    }

    @Test func goneThrottledAndBrokenServicesSayWhatToDo() throws {
        let service = try TestPushService()
        let client = PushClient(vapid: VAPID(key: try #require(P256Key.generate()), subject: "mailto:admin@moim.test"), timeout: 2, allowedHosts: ["127.0.0.1"])
        let message = PushMessage(payload: Array("hi".utf8), timeToLive: 60, urgency: .normal, topic: nil)
        for (mode, expected) in [("410", PushOutcome.gone), ("404", .gone), ("429", .retry(after: 7)), ("500", .retry(after: nil)), ("hang", .retry(after: nil))] {
            let browser = try service.subscribe()
            try service.mode(browser.endpoint, mode)
            let subscription = try PushSubscription(endpoint: browser.endpoint, p256dh: browser.p256dh, auth: browser.auth, allowedHosts: ["127.0.0.1"])
            #expect(client.send(message, to: subscription) == expected, "\(mode)")
        }
        #expect(try service.messages().delivered.isEmpty)
    }

    /// A name that resolves inside the network is no push service, whatever it looked like.
    @Test func aNameThatLeadsInsideTheNetworkIsNeverPostedTo() throws {
        #expect(PublicHost.resolve("localhost") == .private)
        #expect(PublicHost.resolve("127.0.0.1") == .private)
        #expect(PublicHost.resolve("no-such-host.invalid") == .unresolved)
        let browser = try #require(P256Key.generate())
        let subscription = PushSubscription(endpoint: "https://localhost:9/push/x", p256dh: browser.publicKey, auth: [UInt8](repeating: 1, count: 16))
        let client = PushClient(vapid: VAPID(key: try #require(P256Key.generate()), subject: "mailto:admin@moim.test"), timeout: 1)
        #expect(client.send(PushMessage(payload: [1], timeToLive: 60, urgency: .low, topic: nil), to: subscription) == .gone)
    }

    @Test func subscriptionsArePublicHttpsEndpointsWithKeysOnTheCurve() throws {
        let point = Base64URL.encode(try #require(P256Key.generate()).publicKey), secret = Base64URL.encode([UInt8](repeating: 7, count: 16))
        #expect(throws: Never.self) { try PushSubscription(endpoint: "https://fcm.googleapis.com/fcm/send/abc", p256dh: point, auth: secret) }
        #expect(throws: Never.self) { try PushSubscription(endpoint: "https://updates.push.services.mozilla.com./wpush/v2/x", p256dh: point, auth: secret) }
        #expect(throws: Never.self) { try PushSubscription(endpoint: "https://8.8.8.8/x", p256dh: point, auth: secret) }
        for endpoint in ["http://push.example.com/x", "https://127.0.0.1/x", "https://localhost/x", "https://10.1.2.3/x", "https://169.254.169.254/latest",
                         "https://192.168.0.1/x", "https://[::1]/x", "https://[fe80::1]/x", "https://[::ffff:127.0.0.1]/x", "https://printer/x",
                         "javascript:alert(1)", "https://" + String(repeating: "a", count: 1_100) + ".com/",
                         // Loopback and private in other spellings: shortened, octal, hexadecimal and whole-number
                         // IPv4, a trailing dot, IPv4 inside IPv6 (mapped, compatible, NAT64), upper case
                         "https://127.1/x", "https://0177.0.0.1/x", "https://0x7f.0.0.1/x", "https://2130706433/x", "https://0x7f000001/x",
                         "https://10.1/x", "https://192.168.1/x", "https://localhost./x", "https://127.0.0.1./x", "https://LOCALHOST/x",
                         "https://[::ffff:7f00:1]/x", "https://[::127.0.0.1]/x", "https://[64:ff9b::10.0.0.1]/x", "https://[::]/x",
                         "https://0.0.0.0/x", "https://0/x", "https://printer.local./x"] {
            #expect(throws: PushSubscription.Refusal.self, "\(endpoint)") { try PushSubscription(endpoint: endpoint, p256dh: point, auth: secret) }
        }
        let offCurve = Base64URL.encode([4] + [UInt8](repeating: 1, count: 64))
        for (key, auth) in [(offCurve, secret), (point, Base64URL.encode([1, 2, 3])), ("!!", secret), (Base64URL.encode([UInt8](repeating: 0, count: 33)), secret)] {
            #expect(throws: PushSubscription.Refusal.keys) { try PushSubscription(endpoint: "https://push.example.com/x", p256dh: key, auth: auth) }
        }
    }
}
