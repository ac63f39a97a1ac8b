import Testing
@testable import HTTP

@Suite struct TrustedProxiesTests {
    private let proxies = TrustedProxies(["127.0.0.1", "10.0.0.0/8", "fd00::/8"].compactMap(AddressRange.init))

    private func client(_ peer: String, _ forwarded: [String] = [], proto: String? = nil) -> (String, Bool) {
        var headers = HTTPHeaders()
        for value in forwarded { headers.add("X-Forwarded-For", value) }
        if let proto { headers.add("X-Forwarded-Proto", proto) }
        let found = proxies.client(peer: peer, headers: headers)
        return (found.address, found.secure)
    }

    @Test func blocksParseAndContainTheirAddresses() {
        #expect(AddressRange("10.0.0.0/8")?.contains("10.255.1.2") == true)
        #expect(AddressRange("10.0.0.0/8")?.contains("11.0.0.1") == false)
        #expect(AddressRange("127.0.0.1")?.contains("::ffff:127.0.0.1") == true)
        #expect(AddressRange("fd00::/8")?.contains("fd12::1") == true)
        #expect(AddressRange("fd00::/8")?.contains("10.0.0.1") == false)
        #expect(AddressRange("10.1.2.3/20")?.description == "10.1.0.0/20")
        for bad in ["", "10.0.0.0/33", "10.0.0.0/-1", "10.0.0/8", "host", "::/129", "1.2.3.4/ 8"] { #expect(AddressRange(bad) == nil, "\(bad)") }
    }

    @Test func onlyATrustedPeerIsBelievedAndTheRightmostUntrustedHopIsTheClient() {
        // Straight from the internet: the peer, whatever it claims.
        #expect(client("203.0.113.7", ["1.2.3.4"], proto: "https") == ("203.0.113.7", false))
        // Through nginx on this machine.
        #expect(client("127.0.0.1", ["203.0.113.7"], proto: "https") == ("203.0.113.7", true))
        // A client that made up a hop is still itself.
        #expect(client("127.0.0.1", ["6.6.6.6, 203.0.113.7"]) == ("203.0.113.7", false))
        // Two proxies of ours: the load balancer's hop is skipped.
        #expect(client("127.0.0.1", ["203.0.113.7", "10.0.0.5"]) == ("203.0.113.7", false))
        // Garbage stops the walk at the last address a proxy of ours vouched for.
        #expect(client("127.0.0.1", ["203.0.113.7, not-an-ip, 10.0.0.5"]) == ("10.0.0.5", false))
        #expect(client("127.0.0.1") == ("127.0.0.1", false))
        #expect(client("127.0.0.1", ["2001:db8::1"], proto: "http") == ("2001:db8::1", false))
    }
}
