import Foundation
import Network
import Synchronization

/// Map tiles fetched from the operator's tile server on a browser's first request and kept
/// in a bounded folder, so that members' addresses never reach the tile server and each tile
/// is asked for about once a week (the OpenStreetMap tile usage policy: a real User-Agent,
/// caching, no bulk download). A tile server that is down or slow costs a page nothing: pages
/// never wait for tiles, at most `fetchSlots` tiles are fetched at once (others wait for a
/// slot, all within `timeout`), and after a failure the server is left alone for `pause`
/// seconds, its tiles answered at once with 503. So at most `fetchSlots` of the handler
/// threads ever wait on the tile server, plus those waiting for a slot for at most `timeout`.
final class MapTiles: @unchecked Sendable {
    let source: TileSource
    private let folder: TileFolder
    private let userAgent: String
    /// Tiles older than this are fetched again (and served as they are if that fails).
    static let freshFor: TimeInterval = 7 * 86_400
    static let fetchSlots = 4
    static let pause: TimeInterval = 30
    static let largestTile = 1 << 20
    /// Tiles one network may have fetched from the tile server per `missWindow` seconds: a
    /// member panning around a city asks for a few hundred; a script walking the world is
    /// turned away instead of turning Moim into a bulk downloader.
    let missesPerClient: Int
    static let missWindow: TimeInterval = 600

    private struct State {
        var fetching = 0
        var resting: Date?
        /// Fetches per network in the current window.
        var misses: [String: (since: Date, count: Int)] = [:]
    }
    private let state = Mutex(State())
    /// Signalled when a fetch slot frees up.
    private let slotFreed = NSCondition()

    init(source: TileSource, directory: String, userAgent: String, missesPerClient: Int = 600) throws {
        self.source = source
        self.missesPerClient = missesPerClient
        folder = try TileFolder(directory, capacity: source.cacheSize)
        self.userAgent = userAgent
    }

    enum Answer: Equatable {
        case tile([UInt8], type: String)
        /// Not in the cache and not to be had now: the map shows its background.
        case unavailable
    }

    /// Tile `z/x/y`, from the folder or the tile server for `client` (a network, `AddressKey`);
    /// nil when there is no such tile.
    func tile(z: Int, x: Int, y: Int, for client: String, now: Date = Date()) -> Answer? {
        guard (0...19).contains(z), (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y) else { return nil }
        let key = "\(z)/\(x)/\(y)"
        let cached = folder.tile(key, now: now)
        if let cached, let type = Self.imageType(cached.bytes), now.timeIntervalSince(cached.fetched) < Self.freshFor {
            return .tile(cached.bytes, type: type)
        }
        if mayFetch(for: client, now: now), let fetched = fetch(key: key, target: source.target(z: z, x: x, y: y), now: now) {
            folder.store(fetched.bytes, as: key, now: now)
            return .tile(fetched.bytes, type: fetched.type)
        }
        if let cached, let type = Self.imageType(cached.bytes) { return .tile(cached.bytes, type: type) }
        return .unavailable
    }

    /// Counts a fetch against `client`'s budget; false past it.
    private func mayFetch(for client: String, now: Date) -> Bool {
        state.withLock { state in
            if state.misses.count > 10_000 { state.misses = state.misses.filter { now.timeIntervalSince($0.value.since) < Self.missWindow } }
            var entry = state.misses[client] ?? (now, 0)
            if now.timeIntervalSince(entry.since) >= Self.missWindow { entry = (now, 0) }
            guard entry.count < missesPerClient else { return false }
            entry.count += 1
            state.misses[client] = entry
            return true
        }
    }

    /// Takes a fetch slot, waiting for one until `deadline`; false when the tile server is
    /// resting or no slot came free in time.
    private func takeSlot(until deadline: Date) -> Bool {
        slotFreed.lock()
        defer { slotFreed.unlock() }
        while true {
            let taken = state.withLock { state -> Bool? in
                if let resting = state.resting, Date() < resting { return false }
                guard state.fetching < Self.fetchSlots else { return nil }
                state.fetching += 1
                return true
            }
            if let taken { return taken }
            guard slotFreed.wait(until: deadline) else { return false }
        }
    }

    private func fetch(key: String, target: String, now: Date) -> (bytes: [UInt8], type: String)? {
        guard takeSlot(until: now.addingTimeInterval(Double(source.timeout))) else { return nil }
        var succeeded = false
        defer {
            state.withLock { state in
                state.fetching -= 1
                if !succeeded { state.resting = Date().addingTimeInterval(Self.pause) }
            }
            slotFreed.lock()
            slotFreed.broadcast()
            slotFreed.unlock()
        }
        let client = HTTPClient(endpoint: source.endpoint, timeout: source.timeout)
        do {
            let answer = try client.send("GET", target, headers: [("User-Agent", userAgent), ("Accept", "image/png,image/jpeg,image/webp")],
                                         maximumBodySize: Self.largestTile)
            // A tile the server does not have (404 past its zoom range) is no reason to rest.
            succeeded = answer.status == 200 || answer.status == 404
            guard answer.status == 200, let type = Self.imageType(answer.body) else {
                if answer.status != 404 { Self.log("tile \(key): the tile server answered \(answer.status)") }
                return nil
            }
            return (answer.body, type)
        } catch {
            Self.log("tile \(key): \(error)")
            return nil
        }
    }

    /// Bytes held on disk right now.
    var storedBytes: Int { folder.storedBytes }

    /// PNG, JPEG or WebP by their first bytes; nothing else is passed on to browsers.
    static func imageType(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.count > 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        return nil
    }

    static func log(_ message: String) {
        FileHandle.standardError.write(Data("moim: maps: \(message)\n".utf8))
    }
}
