import Foundation

/// A push service on loopback (`Tests/Doubles/push-service`) that verifies each push's VAPID token with
/// `cryptography`'s ES256 and decrypts it with `http_ece`, as real push services and browsers do.
public final class TestPushService {
    public let url: String
    private let folder = NSTemporaryDirectory() + "moim-push-\(UUID().uuidString)"
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    public init() throws {
        url = try runTool(Self.root + "/Tests/Doubles/push-service", ["start", folder], timeout: 300).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit { _ = try? runTool(Self.root + "/Tests/Doubles/push-service", ["stop", folder]) }

    /// A browser subscribing: its endpoint and keys, as `PushSubscription.toJSON()` gives them.
    public func subscribe() throws -> (endpoint: String, p256dh: String, auth: String) {
        let output = try runTool("/usr/bin/curl", ["-s", "-X", "POST", url + "/_control/subscribe"]).output
        guard let json = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], let endpoint = json["endpoint"] as? String,
              let keys = json["keys"] as? [String: String], let p256dh = keys["p256dh"], let auth = keys["auth"] else {
            throw POSIXError(.EPROTO)
        }
        return (endpoint, p256dh, auth)
    }

    /// Makes a browser's endpoint answer `mode`: 404, 410, 429, 500 or hang.
    public func mode(_ endpoint: String, _ mode: String) throws {
        let browser = String(endpoint.split(separator: "/").last ?? "")
        _ = try runTool("/usr/bin/curl", ["-s", "-X", "POST", "--data-binary", #"{"mode":"\#(mode)"}"#, url + "/_control/mode/" + browser])
    }

    /// What was delivered (decrypted), and what the service refused and why.
    public func messages() throws -> (delivered: [[String: Any]], refused: [String]) {
        let output = try runTool("/usr/bin/curl", ["-s", url + "/_control/messages"]).output
        let json = (try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]) ?? [:]
        return (json["delivered"] as? [[String: Any]] ?? [], json["refused"] as? [String] ?? [])
    }
}
