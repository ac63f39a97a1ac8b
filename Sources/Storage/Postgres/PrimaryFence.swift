import CLibpq
import Dispatch
import Foundation
import Synchronization

/// Keeps a server on the newest primary when `--database` names several hosts: after a
/// failover the promoted standby is on a newer timeline, and an old primary that comes back
/// (restarted, or woken from a hang) still takes writes on its old one. libpq would connect to
/// whichever listed host takes writes first; this asks every host for its timeline (in
/// parallel, at most every few seconds) and connects to the writable one on the newest, so
/// writes never go to the old primary, and connections to it are dropped (`generation`).
final class PrimaryFence: Sendable {
    struct Host: Sendable, Equatable {
        let host: String
        let port: String
    }

    private struct Choice {
        let host: Host
        let timeline: UInt32
        let at: UInt64
    }

    let url: String
    let hosts: [Host]
    private let answerTimeout: Int32?
    private let choice = Mutex<Choice?>(nil)
    /// Bumped whenever the chosen host changes: a connection opened before is to a host that
    /// is no longer the primary to use.
    let generation = Atomic<UInt64>(0)
    /// How long a choice stands before a new connection asks every host again.
    static let lifetime: UInt64 = 5_000_000_000

    /// Nil unless `url` names two hosts or more (libpq's `host=a,b` or `postgres://a,b/…`).
    init?(url: String, answerTimeout: Int32?) {
        guard let hosts = Self.hosts(in: url), hosts.count > 1 else { return nil }
        self.url = url
        self.hosts = hosts
        self.answerTimeout = answerTimeout
    }

    /// A connection to the primary on the newest timeline, and the generation it belongs to.
    func connect() throws(PostgresError) -> (PostgresConnection, generation: UInt64) {
        let now = DispatchTime.now().uptimeNanoseconds
        if let chosen = choice.withLock({ $0 }), now &- chosen.at < Self.lifetime,
           let connection = try? open(chosen.host), let timeline = try? Self.timeline(of: connection), timeline >= chosen.timeline {
            return (connection, generation.load(ordering: .acquiring))
        }
        return try choose()
    }

    /// Asks every host at once; keeps the writable one on the newest timeline (the first
    /// listed, among equals).
    private func choose() throws(PostgresError) -> (PostgresConnection, generation: UInt64) {
        let answers = Mutex<[Int: (PostgresConnection, UInt32)]>([:])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: hosts.count) { index in
            do {
                let connection = try open(hosts[index])
                if let timeline = try Self.timeline(of: connection) { answers.withLock { $0[index] = (connection, timeline) } }
            } catch {
                failures.withLock { $0.append("\(hosts[index].host):\(hosts[index].port): \(error)") }
            }
        }
        let found = answers.withLock { $0 }
        guard let newest = found.max(by: { ($0.value.1, -$0.key) < ($1.value.1, -$1.key) }) else {
            throw .connection("no host takes writes: " + failures.withLock { $0 }.joined(separator: "; "))
        }
        let host = hosts[newest.key], timeline = newest.value.1
        guard let generation = settle(on: host, timeline: timeline) else {
            throw .connection("the only host that takes writes, \(host.host):\(host.port), is on timeline \(timeline), older than one seen: an old primary")
        }
        return (newest.value.0, generation)
    }

    /// Keeps `host` as the choice and returns the generation of connections to it; nil when
    /// its timeline is older than one already chosen (never back to an old primary).
    private func settle(on host: Host, timeline: UInt32) -> UInt64? {
        choice.withLock { chosen -> UInt64? in
            if let chosen, chosen.timeline > timeline { return nil }
            let changed = chosen.map { $0.host != host || $0.timeline != timeline } ?? false
            chosen = Choice(host: host, timeline: timeline, at: DispatchTime.now().uptimeNanoseconds)
            return changed ? generation.add(1, ordering: .acquiringAndReleasing).newValue : generation.load(ordering: .acquiring)
        }
    }

    private func open(_ host: Host) throws(PostgresError) -> PostgresConnection {
        try PostgresConnection(url: url, answerTimeout: answerTimeout, overrides: [("host", host.host), ("port", host.port)])
    }

    /// The timeline the server writes on, or nil when it is a standby (it takes no writes).
    static func timeline(of connection: PostgresConnection) throws -> UInt32? {
        // A WAL file's name starts with its timeline, in 8 hex digits.
        let name = try connection.text("SELECT CASE WHEN pg_is_in_recovery() THEN NULL ELSE pg_walfile_name(pg_current_wal_lsn()) END")
        return name.flatMap { UInt32($0.prefix(8), radix: 16) }
    }

    /// The hosts and ports `url` names, by libpq's own parser; nil when it cannot parse it.
    static func hosts(in url: String) -> [Host]? {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &error) else {
            if let error { PQfreemem(error) }
            return nil
        }
        defer { PQconninfoFree(options) }
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        // Addresses given as hostaddr are left to libpq.
        guard values["hostaddr"] == nil, let hostList = values["host"] else { return nil }
        let names = hostList.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let ports = (values["port"] ?? "").split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard ports.count <= 1 || ports.count == names.count else { return nil }
        return names.indices.map { index in
            let port = ports.count == names.count ? ports[index] : ports.first ?? ""
            return Host(host: names[index], port: port.isEmpty ? "5432" : port)
        }
    }
}
