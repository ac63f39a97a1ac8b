import Foundation

/// A browser's push subscription (the Push API's `PushSubscription.toJSON()`): where to post,
/// and the keys to encrypt for.
public struct PushSubscription: Sendable, Equatable {
    public var endpoint: String
    public var p256dh: [UInt8]
    public var auth: [UInt8]

    public init(endpoint: String, p256dh: [UInt8], auth: [UInt8]) {
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
    }

    public enum Refusal: Error, Equatable {
        /// Not an https URL, or one of at most 1,024 characters.
        case endpoint
        /// A host that is not on the public internet (loopback, private, link-local).
        case privateHost
        /// Keys of the wrong length, or a point not on P-256.
        case keys
    }

    /// A subscription as the browser sent it, checked: an https endpoint on a public host (or
    /// on one of `allowedHosts`, for tests), a P-256 public key and a 16-byte secret, both
    /// base64url.
    public init(endpoint: String, p256dh: String, auth: String, allowedHosts: Set<String> = []) throws(Refusal) {
        guard endpoint.utf8.count <= 1_024, let (server, _) = HTTPEndpoint.split(endpoint) else { throw .endpoint }
        let allowed = allowedHosts.contains(server.host) || allowedHosts.contains(server.hostHeader)
        guard server.isSecure || allowed else { throw .endpoint }
        guard allowed || PublicHost.isPublic(server.host) else { throw .privateHost }
        guard let key = Base64URL.decode(p256dh), P256Key.isValidPublicKey(key), let secret = Base64URL.decode(auth), secret.count == 16 else {
            throw .keys
        }
        self.init(endpoint: endpoint, p256dh: key, auth: secret)
    }

    /// The push service's origin: the audience a VAPID token names.
    public var audience: String? {
        HTTPEndpoint.split(endpoint).map { ($0.endpoint.isSecure ? "https://" : "http://") + $0.endpoint.hostHeader }
    }
}

/// One message for a push service: how long it may wait, how urgent it is, and what it replaces.
public struct PushMessage: Sendable, Equatable {
    public enum Urgency: String, Sendable {
        case veryLow = "very-low", low, normal, high
    }

    public var payload: [UInt8]
    /// Seconds the push service keeps it for a device that is offline.
    public var timeToLive: Int
    public var urgency: Urgency
    /// A newer message with the same topic replaces this one while undelivered (RFC 8030 §5.4):
    /// at most 32 characters of the base64url alphabet.
    public var topic: String?

    public init(payload: [UInt8], timeToLive: Int, urgency: Urgency, topic: String?) {
        self.payload = payload
        self.timeToLive = timeToLive
        self.urgency = urgency
        self.topic = topic
    }
}

/// What a push service said to one message.
public enum PushOutcome: Sendable, Equatable {
    case delivered
    /// 404 or 410: the subscription is gone; drop it.
    case gone
    /// 429 or 5xx (or no answer): try again, not before `after` seconds when the service said.
    case retry(after: Int?)
    /// Any other refusal (400, 403, 413): trying again would not help.
    case refused(Int)
}

/// Sends Web Push messages (RFC 8030) over the small blocking client, encrypted and signed.
public struct PushClient: Sendable {
    public var vapid: VAPID
    public var timeout: Int
    public var trustedCertificates: String?
    /// Hosts allowed though they are not public (tests).
    public var allowedHosts: Set<String>

    public init(vapid: VAPID, timeout: Int = 10, trustedCertificates: String? = nil, allowedHosts: Set<String> = []) {
        self.vapid = vapid
        self.timeout = timeout
        self.trustedCertificates = trustedCertificates
        self.allowedHosts = allowedHosts
    }

    public func send(_ message: PushMessage, to subscription: PushSubscription, now: Date = Date()) -> PushOutcome {
        guard let (endpoint, target) = HTTPEndpoint.split(subscription.endpoint), let audience = subscription.audience,
              let authorization = vapid.authorization(audience: audience, now: now),
              let body = try? WebPushEncryption.encrypt(message.payload, p256dh: subscription.p256dh, auth: subscription.auth)
        else { return .refused(0) }
        var headers = [
            ("Authorization", authorization), ("TTL", String(max(0, message.timeToLive))), ("Urgency", message.urgency.rawValue),
            ("Content-Encoding", "aes128gcm"), ("Content-Type", "application/octet-stream"),
        ]
        if let topic = message.topic { headers.append(("Topic", topic)) }
        // A name that was public when the browser subscribed may point inside the network now.
        if !allowedHosts.contains(endpoint.host) {
            switch PublicHost.resolve(endpoint.host) {
            case .public: break
            case .private: return .gone
            case .unresolved: return .retry(after: nil)
            }
        }
        let client = HTTPClient(endpoint: endpoint, timeout: timeout, trustedCertificates: trustedCertificates)
        guard let answer = try? client.send("POST", target, headers: headers, body: body, maximumBodySize: 64 << 10) else {
            return .retry(after: nil)
        }
        switch answer.status {
        case 200..<300: return .delivered
        case 404, 410: return .gone
        case 429, 500...599:
            let after = answer.header("retry-after").flatMap { $0.utf8.count <= 6 ? Int($0) : nil }
            return .retry(after: after)
        default: return .refused(answer.status)
        }
    }
}

/// Whether a host name or address is on the public internet: a push endpoint must be, so that
/// a member cannot make the server post to its own network.
enum PublicHost {
    enum Resolution: Equatable {
        case `public`, `private`, unresolved
    }

    /// Where `host` leads now: public only when every address it resolves to is.
    static func resolve(_ host: String) -> Resolution {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &found) == 0, let first = found else { return .unresolved }
        defer { freeaddrinfo(first) }
        var info: UnsafeMutablePointer<addrinfo>? = first
        while let current = info {
            info = current.pointee.ai_next
            var name = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(current.pointee.ai_addr, current.pointee.ai_addrlen, &name, socklen_t(name.count), nil, 0, NI_NUMERICHOST) == 0 else {
                return .unresolved
            }
            let address = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !isPublic(address.split(separator: "%").first.map(String.init) ?? address) { return .private }
        }
        return .public
    }

    static func isPublic(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        // "localhost." is localhost: a resolver drops the dot that ends a full name.
        while name.hasSuffix(".") { name.removeLast() }
        if name == "localhost" || name.hasSuffix(".localhost") || name.hasSuffix(".local") || name.hasSuffix(".internal") || !name.contains(".") && !name.contains(":") {
            return false
        }
        // IPv4 in every form a resolver reads: "127.1", "0177.0.0.1", "0x7f.0.0.1", "2130706433".
        var v4 = in_addr()
        if !name.contains(":"), inet_aton(name, &v4) != 0 {
            let octets = withUnsafeBytes(of: v4.s_addr) { Array($0) }
            switch (octets[0], octets[1]) {
            case (0, _), (10, _), (127, _), (169, 254), (192, 168), (100, 64...127): return false
            case (172, 16...31): return false
            case (224...255, _): return false
            default: return true
            }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, name, &v6) == 1 {
            let bytes = withUnsafeBytes(of: v6) { Array($0) }
            if bytes.allSatisfy({ $0 == 0 }) || bytes == [UInt8](repeating: 0, count: 15) + [1] { return false }
            if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return false }  // fe80::/10
            if bytes[0] & 0xFE == 0xFC { return false }  // fc00::/7
            if bytes[0] == 0xFF { return false }
            // IPv4 inside IPv6: mapped (::ffff:a.b.c.d), compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d).
            let mapped = bytes.prefix(10).allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF
            let compatible = bytes.prefix(12).allSatisfy({ $0 == 0 })
            let nat64 = bytes.prefix(12) == [0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0]
            if mapped || compatible || nat64 {
                return isPublic("\(bytes[12]).\(bytes[13]).\(bytes[14]).\(bytes[15])")
            }
            return true
        }
        return true
    }
}
