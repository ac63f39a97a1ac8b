import Foundation
import Synchronization

/// The tile cache on disk, `z/x/y` files in one folder, kept under `capacity` bytes by
/// dropping the tiles least recently served. A new process counts what the folder holds.
final class TileFolder: Sendable {
    private let directory: String
    private let capacity: Int

    private struct Contents {
        /// Bytes and when each tile was last served.
        var tiles: [String: (bytes: Int, used: Date)] = [:]
        var bytes = 0
    }
    private let contents = Mutex(Contents())

    init(_ directory: String, capacity: Int) throws {
        self.directory = directory
        self.capacity = capacity
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let found = Self.scan(directory)
        contents.withLock { contents in
            contents.tiles = found
            contents.bytes = found.values.reduce(0) { $0 + $1.bytes }
        }
    }

    /// The tile stored as `key` and when it was fetched.
    func tile(_ key: String, now: Date) -> (bytes: [UInt8], fetched: Date)? {
        let path = directory + "/" + key
        guard let data = FileManager.default.contents(atPath: path),
              let fetched = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date else { return nil }
        contents.withLock { $0.tiles[key]?.used = now }
        return ([UInt8](data), fetched)
    }

    /// Writes the tile (through a temporary file, so a reader never sees half of one) and
    /// drops the least recently served past the capacity.
    func store(_ bytes: [UInt8], as key: String, now: Date) {
        let path = directory + "/" + key
        let temporary = path + ".part"
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            MapTiles.log("tile \(key): cannot keep it: \(error)")
            return
        }
        let leaving = contents.withLock { contents -> [String] in
            contents.bytes += bytes.count - (contents.tiles[key]?.bytes ?? 0)
            contents.tiles[key] = (bytes.count, now)
            guard contents.bytes > capacity else { return [] }
            // Down to 90%, so that eviction runs once per many tiles, not on each one.
            var leaving: [String] = []
            for (old, entry) in contents.tiles.sorted(by: { $0.value.used < $1.value.used }) where contents.bytes > capacity * 9 / 10 {
                leaving.append(old)
                contents.bytes -= entry.bytes
                contents.tiles[old] = nil
            }
            return leaving
        }
        for old in leaving { try? FileManager.default.removeItem(atPath: directory + "/" + old) }
    }

    /// Bytes held on disk right now.
    var storedBytes: Int { contents.withLock { $0.bytes } }

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
}
