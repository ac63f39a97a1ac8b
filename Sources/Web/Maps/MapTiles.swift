import Foundation
import HTTP
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
    private let directory: String
    private let userAgent: String
    /// Tiles older than this are fetched again (and served as they are if that fails).
    static let freshFor: TimeInterval = 7 * 86_400
    static let fetchSlots = 4
    static let pause: TimeInterval = 30
    static let largestTile = 1 << 20

    private struct State {
        var fetching = 0
        var resting: Date?
        /// What the folder holds: bytes and when each tile was last served, for eviction.
        var stored: [String: (bytes: Int, used: Date)] = [:]
        var storedBytes = 0
    }
    private let state = Mutex(State())
    /// Signalled when a fetch slot frees up.
    private let slotFreed = NSCondition()

    init(source: TileSource, directory: String, userAgent: String) throws {
        self.source = source
        self.directory = directory
        self.userAgent = userAgent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let found = Self.scan(directory)
        state.withLock { state in
            state.stored = found
            state.storedBytes = found.values.reduce(0) { $0 + $1.bytes }
        }
    }

    enum Answer: Equatable {
        case tile([UInt8], type: String)
        /// Not in the cache and not to be had now: the map shows its background.
        case unavailable
    }

    /// Tile `z/x/y`, from the folder or the tile server; nil when there is no such tile.
    func tile(z: Int, x: Int, y: Int, now: Date = Date()) -> Answer? {
        guard (0...19).contains(z), (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y) else { return nil }
        let key = "\(z)/\(x)/\(y)"
        let path = directory + "/" + key
        let cached = FileManager.default.contents(atPath: path).map { [UInt8]($0) }
        let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date
        if let cached, let type = Self.imageType(cached), let modified, now.timeIntervalSince(modified) < Self.freshFor {
            state.withLock { $0.stored[key]?.used = now }
            return .tile(cached, type: type)
        }
        if let fetched = fetch(key: key, target: source.target(z: z, x: x, y: y), now: now) {
            store(fetched.bytes, key: key, now: now)
            return .tile(fetched.bytes, type: fetched.type)
        }
        if let cached, let type = Self.imageType(cached) { return .tile(cached, type: type) }
        return .unavailable
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

    /// Writes the tile (through a temporary file, so a reader never sees half of one) and
    /// evicts the least recently served tiles past the cache size.
    private func store(_ bytes: [UInt8], key: String, now: Date) {
        let path = directory + "/" + key
        let temporary = path + ".part"
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            Self.log("tile \(key): cannot keep it: \(error)")
            return
        }
        let evicted = state.withLock { state -> [String] in
            state.storedBytes += bytes.count - (state.stored[key]?.bytes ?? 0)
            state.stored[key] = (bytes.count, now)
            guard state.storedBytes > source.cacheSize else { return [] }
            // Down to 90%, so that eviction runs once per many tiles, not on each one.
            var leaving: [String] = []
            for (old, entry) in state.stored.sorted(by: { $0.value.used < $1.value.used }) where state.storedBytes > source.cacheSize * 9 / 10 {
                leaving.append(old)
                state.storedBytes -= entry.bytes
                state.stored[old] = nil
            }
            return leaving
        }
        for old in evicted { try? FileManager.default.removeItem(atPath: directory + "/" + old) }
    }

    /// Bytes held on disk right now.
    var storedBytes: Int { state.withLock { $0.storedBytes } }

    /// PNG, JPEG or WebP by their first bytes; nothing else is passed on to browsers.
    static func imageType(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.count > 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        return nil
    }

    private static func scan(_ directory: String) -> [String: (bytes: Int, used: Date)] {
        var found: [String: (bytes: Int, used: Date)] = [:]
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return found }
        while let relative = walker.nextObject() as? String {
            guard let attributes = walker.fileAttributes, attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            if relative.hasSuffix(".part") {
                try? FileManager.default.removeItem(atPath: directory + "/" + relative)
                continue
            }
            found[relative] = ((attributes[.size] as? NSNumber)?.intValue ?? 0, attributes[.modificationDate] as? Date ?? .distantPast)
        }
        return found
    }

    private static func log(_ message: String) {
        FileHandle.standardError.write(Data("moim: maps: \(message)\n".utf8))
    }
}
