import Foundation

/// A zip file of stored (uncompressed) entries, as every system's archive tool opens it: the
/// member's data export, whose photos are already compressed and whose JSON is small. No
/// zip64: `add` refuses once the archive would pass what 32-bit offsets hold.
public struct ZipArchive {
    public enum Failure: Error, Equatable {
        case tooLarge
        case badPath(String)
    }

    private var body: [UInt8] = []
    private var directory: [UInt8] = []
    private var count = 0
    private let time: UInt16
    private let date: UInt16

    /// Entries carry `modified` as their time (UTC).
    public init(modified: Date = Date()) {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC") ?? .current, from: modified)
        let year = min(max((parts.year ?? 1980) - 1980, 0), 127)
        date = UInt16(year << 9 | (parts.month ?? 1) << 5 | (parts.day ?? 1))
        time = UInt16((parts.hour ?? 0) << 11 | (parts.minute ?? 0) << 5 | (parts.second ?? 0) / 2)
    }

    /// Adds a file at `path` (relative, `/`-separated, no `..`).
    public mutating func add(_ path: String, _ data: [UInt8]) throws(Failure) {
        let name = Array(path.utf8)
        guard !name.isEmpty, name.count < 0xFFFF, name.first != UInt8(ascii: "/"),
              !path.split(separator: "/").contains("..") else { throw .badPath(path) }
        let offset = body.count
        guard offset + 30 + name.count + data.count + directory.count + 46 + name.count + 22 < Int(UInt32.max), count < 0xFFFF else {
            throw .tooLarge
        }
        let crc = Self.crc32(data)
        // Local header: signature, version 2.0, flags (bit 11: UTF-8 names), method 0 (stored).
        body += Self.le32(0x0403_4B50) + Self.le16(20) + Self.le16(0x0800) + Self.le16(0) + Self.le16(time) + Self.le16(date)
        body += Self.le32(crc) + Self.le32(UInt32(data.count)) + Self.le32(UInt32(data.count)) + Self.le16(UInt16(name.count)) + Self.le16(0)
        body += name
        body += data
        directory += Self.le32(0x0201_4B50) + Self.le16(20) + Self.le16(20) + Self.le16(0x0800) + Self.le16(0) + Self.le16(time) + Self.le16(date)
        directory += Self.le32(crc) + Self.le32(UInt32(data.count)) + Self.le32(UInt32(data.count)) + Self.le16(UInt16(name.count))
        directory += Self.le16(0) + Self.le16(0) + Self.le16(0) + Self.le16(0) + Self.le32(0) + Self.le32(UInt32(offset))
        directory += name
        count += 1
    }

    /// The whole archive.
    public func finished() -> [UInt8] {
        let entries = Self.le16(UInt16(count))
        return body + directory + Self.le32(0x0605_4B50) + Self.le16(0) + Self.le16(0) + entries + entries
            + Self.le32(UInt32(directory.count)) + Self.le32(UInt32(body.count)) + Self.le16(0)
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    /// CRC-32 (ISO-HDLC), as zip checks each entry.
    static func crc32(_ data: [UInt8]) -> UInt32 {
        ~data.reduce(~UInt32(0)) { crc, byte in crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
}
