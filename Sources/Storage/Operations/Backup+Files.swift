import Formats
import Foundation

/// The archive's files: sizes, reading in chunks, checksums, the manifest's encoding.
extension Backup {
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func size(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.size] as? NSNumber)?.intValue ?? 0
    }

    static func chunks(of path: String, _ body: (Data) throws -> Void) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw BackupError.cannotRead(path) }
        defer { try? handle.close() }
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { try body(chunk) }
    }

    static func hash(_ path: String) throws -> String {
        var digest = Crypto.SHA256()
        try chunks(of: path) { chunk in chunk.withUnsafeBytes { digest.update($0) } }
        return digest.hex()
    }
}
