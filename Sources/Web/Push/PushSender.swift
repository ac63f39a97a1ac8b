import Foundation
import Network
import Storage
import Synchronization

/// How the site pushes to its members' devices.
public struct PushConfiguration: Sendable {
    /// Who a push service can reach about this site (RFC 8292's `sub`): `mailto:` or `https:`.
    public var subject: String
    /// Push services on other hosts than public https ones, for tests (`--push-allow-host`).
    public var allowedHosts: Set<String> = []
    /// Seconds to wait for one push service.
    public var timeout = 5
    /// Pushes in flight at once: a push service that hangs holds at most these.
    public var inFlight = 8

    public init(subject: String) {
        self.subject = subject
    }
}

/// Delivers the push queue: what is due goes out, at most `inFlight` at once, each bounded by
/// the timeout. Delivered: off the queue. The browser is gone (404, 410): the device goes.
/// Throttled or failing (429, 5xx, no answer): again later, waiting as the service asked or
/// twice as long each time (a minute to an hour); after eight tries it is dropped. Refused for
/// good (400, 403, 413): dropped and logged.
final class PushSender: Sendable {
    let client: PushClient
    private let database: AppDatabase
    private let configuration: PushConfiguration
    private let wakeUp = WakeUp()

    static let maximumAttempts = 8
    /// Pushes taken from the queue in one pass.
    static let batch = 200

    init(database: AppDatabase, configuration: PushConfiguration) throws {
        self.database = database
        self.configuration = configuration
        let kept = try database.push.siteKey(named: "vapid") { P256Key.generate()?.privateKey ?? [] }
        guard let key = P256Key(privateKey: kept) else { throw ConfigurationError("the site's VAPID key in the database is not a P-256 key") }
        client = PushClient(vapid: VAPID(key: key, subject: configuration.subject), timeout: configuration.timeout, allowedHosts: configuration.allowedHosts)
    }

    /// The key browsers subscribe with (`applicationServerKey`), base64url.
    var publicKey: String { Base64URL.encode(client.vapid.key.publicKey) }

    /// Something was queued: push now rather than at the next poll.
    func wake() { wakeUp.ring() }

    func waitForWork(seconds: TimeInterval = 2) { wakeUp.wait(seconds: seconds) }

    struct Delivery: Equatable {
        var delivered = 0
        var deferred = 0
        var dropped = 0
        var gone = 0
        var handled: Int { delivered + deferred + dropped + gone }
    }

    /// One pass over what is due: `message` says what each push says (nil: nothing to say any more).
    @inline(never)
    @discardableResult
    func deliverDue(now: Date = Date(), message: (PushDelivery) -> PushMessage?) throws -> Delivery {
        let due = try database.push.duePushes(limit: Self.batch, now: now)
        var outcomes: [(PushDelivery, PushOutcome?)] = []
        var work: [(PushDelivery, PushMessage)] = []
        for delivery in due {
            if let message = message(delivery) { work.append((delivery, message)) } else { outcomes.append((delivery, nil)) }
        }
        let results = Mutex<[(PushDelivery, PushOutcome?)]>([])
        let slots = DispatchSemaphore(value: max(1, configuration.inFlight))
        let group = DispatchGroup()
        for (delivery, message) in work {
            slots.wait()
            group.enter()
            let client = client
            DispatchQueue.global().async {
                let subscription = PushSubscription(endpoint: delivery.endpoint, p256dh: delivery.p256dh, auth: delivery.auth)
                let outcome = client.send(message, to: subscription, now: now)
                results.withLock { $0.append((delivery, outcome)) }
                slots.signal()
                group.leave()
            }
        }
        group.wait()
        var tally = Delivery()
        for (delivery, outcome) in outcomes + results.withLock({ $0 }) {
            switch outcome {
            case .delivered?:
                try database.push.pushDelivered(delivery, now: now)
                tally.delivered += 1
            case .gone?:
                try database.push.pushSubscriptionGone(delivery)
                tally.gone += 1
            case .retry(let after)? where delivery.attempts + 1 < Self.maximumAttempts:
                let backoff = min(3_600, 60 << min(delivery.attempts, 6))
                try database.push.pushDeferred(delivery, next: now.addingTimeInterval(TimeInterval(max(backoff, min(after ?? 0, 86_400)))))
                tally.deferred += 1
            case .refused(let status)?:
                FileHandle.standardError.write(Data("push \(delivery.id) refused by the push service (\(status)); dropped\n".utf8))
                try database.push.pushDropped(delivery)
                tally.dropped += 1
            case .retry?, nil:
                try database.push.pushDropped(delivery)
                tally.dropped += 1
            }
        }
        return tally
    }
}
