import Foundation
import Testing
import TestSupport
@testable import Network

/// Web Push against a push service on loopback (`script/push`) that verifies the VAPID token
/// with `cryptography`'s ES256 and decrypts with `http_ece`, as real push services do.
@Suite(.serialized) struct PushTests {
    final class PushService {
        let url: String
        private let folder = NSTemporaryDirectory() + "moim-push-\(UUID().uuidString)"

        init() throws {
            url = try runTool(TestSupportPaths.root + "/script/push", ["start", folder], timeout: 300).output.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        deinit { _ = try? runTool(TestSupportPaths.root + "/script/push", ["stop", folder]) }

        /// A browser subscribing: its endpoint and keys, as `PushSubscription.toJSON()` gives them.
        func subscribe() throws -> (endpoint: String, p256dh: String, auth: String) {
            let output = try runTool("/usr/bin/curl", ["-s", "-X", "POST", url + "/_control/subscribe"]).output
            let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
            let keys = try #require(json["keys"] as? [String: String])
            return (try #require(json["endpoint"] as? String), try #require(keys["p256dh"]), try #require(keys["auth"]))
        }

        func mode(_ endpoint: String, _ mode: String) throws {
            let browser = String(endpoint.split(separator: "/").last ?? "")
            _ = try runTool("/usr/bin/curl", ["-s", "-X", "POST", "--data-binary", #"{"mode":"\#(mode)"}"#, url + "/_control/mode/" + browser])
        }

        func messages() throws -> (delivered: [[String: Any]], refused: [String]) {
            let output = try runTool("/usr/bin/curl", ["-s", url + "/_control/messages"]).output
            let json = (try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]) ?? [:]
            return (json["delivered"] as? [[String: Any]] ?? [], json["refused"] as? [String] ?? [])
        }
    }

    @Test func aMessageIsSignedAndEncryptedSoThatAPushServiceAndTheBrowserReadIt() throws {
        let service = try PushService()
        let browser = try service.subscribe()
        let subscription = try PushSubscription(endpoint: browser.endpoint, p256dh: browser.p256dh, auth: browser.auth, allowedHosts: ["127.0.0.1"])
        let key = try #require(PushKey.generate())
        // The key survives being kept: the same public half after a round trip through its DER.
        let kept = try #require(PushKey(privateKey: key.privateKey))
        #expect(kept.publicKey == key.publicKey)
        let client = PushClient(vapid: VAPID(key: kept, subject: "mailto:admin@moim.test"), timeout: 3)
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
        let service = try PushService()
        let client = PushClient(vapid: VAPID(key: try #require(PushKey.generate()), subject: "mailto:admin@moim.test"), timeout: 2)
        let message = PushMessage(payload: Array("hi".utf8), timeToLive: 60, urgency: .normal, topic: nil)
        for (mode, expected) in [("410", PushOutcome.gone), ("404", .gone), ("429", .retry(after: 7)), ("500", .retry(after: nil)), ("hang", .retry(after: nil))] {
            let browser = try service.subscribe()
            try service.mode(browser.endpoint, mode)
            let subscription = try PushSubscription(endpoint: browser.endpoint, p256dh: browser.p256dh, auth: browser.auth, allowedHosts: ["127.0.0.1"])
            #expect(client.send(message, to: subscription) == expected, "\(mode)")
        }
        #expect(try service.messages().delivered.isEmpty)
    }

    @Test func subscriptionsArePublicHttpsEndpointsWithKeysOnTheCurve() throws {
        let point = Base64URL.encode(try #require(PushKey.generate()).publicKey), secret = Base64URL.encode([UInt8](repeating: 7, count: 16))
        #expect(throws: Never.self) { try PushSubscription(endpoint: "https://fcm.googleapis.com/fcm/send/abc", p256dh: point, auth: secret) }
        for endpoint in ["http://push.example.com/x", "https://127.0.0.1/x", "https://localhost/x", "https://10.1.2.3/x", "https://169.254.169.254/latest",
                         "https://192.168.0.1/x", "https://[::1]/x", "https://[fe80::1]/x", "https://[::ffff:127.0.0.1]/x", "https://printer/x",
                         "javascript:alert(1)", "https://" + String(repeating: "a", count: 1_100) + ".com/"] {
            #expect(throws: PushSubscription.Refusal.self, "\(endpoint)") { try PushSubscription(endpoint: endpoint, p256dh: point, auth: secret) }
        }
        let offCurve = Base64URL.encode([4] + [UInt8](repeating: 1, count: 64))
        for (key, auth) in [(offCurve, secret), (point, Base64URL.encode([1, 2, 3])), ("!!", secret), (Base64URL.encode([UInt8](repeating: 0, count: 33)), secret)] {
            #expect(throws: PushSubscription.Refusal.keys) { try PushSubscription(endpoint: "https://push.example.com/x", p256dh: key, auth: auth) }
        }
    }
}
