import ArgumentParser
import Foundation
import Network
import Synchronization

struct PushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Web Push: measure what one push costs, and many pushes to a push service.",
        subcommands: [Bench.self])

    /// What one push costs here (encrypting for the browser and signing for the push service),
    /// then `count` pushes, `inFlight` at a time, to a push service on loopback (`Tests/Doubles/push-service`),
    /// as the sender delivers a busy meetup's talk message to everyone going.
    struct Bench: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Time encrypting and signing pushes, then deliver many to a test push service.")

        @Option(help: "The push service (Tests/Doubles/push-service's URL).") var service: String
        @Option(help: "Pushes to deliver.") var count = 10_000
        @Option(help: "Devices they go to (each a browser at the service).") var devices = 100
        @Option(name: .customLong("in-flight"), help: "Pushes in flight at once.") var inFlight = 8

        func run() throws {
            guard let key = P256Key.generate(), let browser = P256Key.generate() else { throw ValidationError("OpenSSL made no P-256 key.") }
            let vapid = VAPID(key: key, subject: "mailto:bench@moim.test")
            let payload = Array(#"{"title":"Dawn 10K","body":"Mina: Gate 2 at 6:30, see you there","url":"/meetups/7#talk","tag":"talk-7"}"#.utf8)
            let auth = [UInt8](repeating: 7, count: 16)
            let rounds = 2_000
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<rounds {
                _ = try WebPushEncryption.encrypt(payload, p256dh: browser.publicKey, auth: auth)
                _ = vapid.authorization(audience: "https://push.example.com", now: Date())
            }
            let perPush = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(rounds) / 1_000
            print(String(format: "one push, encrypted and signed: %.0f µs (%d rounds)", perPush, rounds))

            let subscriptions = try (0..<max(1, devices)).map { _ in try subscribe() }
            let hosts = Set(subscriptions.compactMap { HTTPEndpoint.split($0.endpoint)?.endpoint.host })
            let client = PushClient(vapid: vapid, timeout: 10, allowedHosts: hosts)
            let message = PushMessage(payload: payload, timeToLive: 3_600, urgency: .normal, topic: "talk-7")
            let delivered = Mutex(0)
            let slots = DispatchSemaphore(value: max(1, inFlight))
            let group = DispatchGroup()
            let began = Date()
            for index in 0..<count {
                slots.wait()
                group.enter()
                let subscription = subscriptions[index % subscriptions.count]
                DispatchQueue.global().async {
                    if client.send(message, to: subscription) == .delivered { delivered.withLock { $0 += 1 } }
                    slots.signal()
                    group.leave()
                }
            }
            group.wait()
            let seconds = Date().timeIntervalSince(began)
            print(String(format: "%d pushes to %d devices, %d in flight: %d delivered in %.1f s (%.0f/s)", count, subscriptions.count, inFlight,
                         delivered.withLock { $0 }, seconds, Double(count) / seconds))
        }

        /// A browser subscribing at the test service.
        private func subscribe() throws -> PushSubscription {
            guard let (endpoint, target) = HTTPEndpoint.split(service + "/_control/subscribe") else { throw ValidationError("--service must be an http(s) URL.") }
            let answer = try HTTPClient(endpoint: endpoint).send("POST", target)
            guard let json = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any], let url = json["endpoint"] as? String,
                  let keys = json["keys"] as? [String: String] else { throw ValidationError("\(service) is not Tests/Doubles/push-service's service.") }
            let host = HTTPEndpoint.split(url)?.endpoint.host ?? ""
            return try PushSubscription(endpoint: url, p256dh: keys["p256dh"] ?? "", auth: keys["auth"] ?? "", allowedHosts: [host])
        }
    }
}
