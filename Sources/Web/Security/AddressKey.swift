import Glibc

/// The key a client's address is counted under by rate limits.
///
/// One IPv6 subscriber is usually given a whole /64, so counting single IPv6 addresses would
/// let one person try 2^64 times as often; IPv6 clients are counted per /64. IPv4 (also as
/// an IPv4-mapped IPv6 address) is counted per address.
enum AddressKey {
    static func of(_ address: String) -> String {
        var bytes = in6_addr()
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        let octets = withUnsafeBytes(of: &bytes) { Array($0) }
        let isMappedIPv4 = octets[0..<10].allSatisfy { $0 == 0 } && octets[10] == 0xFF && octets[11] == 0xFF
        if isMappedIPv4 { return octets[12...].map(String.init).joined(separator: ".") }
        let hex = octets[0..<8].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }
        return stride(from: 0, to: 8, by: 2).map { hex[$0] + hex[$0 + 1] }.joined(separator: ":") + "::/64"
    }
}
