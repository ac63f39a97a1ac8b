import Glibc

/// A block of addresses, `10.0.0.0/8` or `fd00::/8` (a single address is its own block).
public struct AddressRange: Sendable, Equatable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6.
    let network: [UInt8]
    let prefix: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = AddressRange.bytes(String(parts[0])) else { return nil }
        let bits = bytes.count * 8
        let prefix: Int
        if parts.count == 2 {
            guard let value = Int(parts[1]), (0...bits).contains(value), parts[1].allSatisfy(\.isNumber) else { return nil }
            prefix = value
        } else {
            prefix = bits
        }
        network = AddressRange.masked(bytes, prefix)
        self.prefix = prefix
    }

    public func contains(_ address: String) -> Bool {
        guard let bytes = AddressRange.bytes(address), bytes.count == network.count else { return false }
        return AddressRange.masked(bytes, prefix) == network
    }

    public var description: String {
        var copy = network
        let family = network.count == 4 ? AF_INET : AF_INET6
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        _ = inet_ntop(family, &copy, &text, socklen_t(text.count))
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/\(prefix)"
    }

    /// The address's bytes; an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) counts as IPv4.
    static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }

    private static func masked(_ bytes: [UInt8], _ prefix: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let keep = min(8, max(0, prefix - index * 8))
            return keep == 8 ? byte : byte & ~(UInt8(0xFF) >> keep)
        }
    }
}

/// The proxies in front of the server (`--trusted-proxy`). Only a request that comes from one
/// of them has its `X-Forwarded-For` and `X-Forwarded-Proto` believed; the client is then
/// the rightmost address in `X-Forwarded-For` that is not itself a trusted proxy, since each
/// proxy appends the address it saw and anything to the left may be made up by the client.
public struct TrustedProxies: Sendable {
    public let ranges: [AddressRange]

    public init(_ ranges: [AddressRange] = []) {
        self.ranges = ranges
    }

    public func isTrusted(_ address: String) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// The client's address and whether it reached the proxy over HTTPS.
    public func client(peer: String, headers: HTTPHeaders) -> (address: String, secure: Bool) {
        guard !ranges.isEmpty, isTrusted(peer) else { return (peer, false) }
        var client = peer
        let hops = headers.values("X-Forwarded-For").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: " \t") }
        for hop in hops.reversed() {
            // A hop that is not an address stops the walk: what is left of it is not to be believed.
            guard AddressRange.bytes(hop) != nil else { break }
            client = hop
            if !isTrusted(hop) { break }
        }
        let proto = headers.values("X-Forwarded-Proto").last?.split(separator: ",").last?.trimmingCharacters(in: " \t").lowercased()
        return (client, proto == "https")
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        Substring(self).trimmingCharacters(in: set)
    }
}
