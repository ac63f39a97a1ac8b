import Foundation
@testable import Storage

/// What PostgreSQL sends back (rows in binary) and what Moim sends it (dates as text).
enum StorageTargets {
    /// Any bytes as a value of each binary type Moim reads, and any 8 bytes as the instant a
    /// form might have produced: never a trap; an integer reads back as the bytes it came from;
    /// a timestamp is always PostgreSQL's form.
    static func postgresValues(_ bytes: UnsafeBufferPointer<UInt8>) {
        let raw = UnsafeRawBufferPointer(bytes)
        _ = PostgresBinary.numeric(raw)
        if let value = PostgresBinary.integer(raw) {
            let width = bytes.count
            let back = (0..<width).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: value) >> (8 * UInt64(width - 1 - $0))) }
            guard back == Array(bytes) else { violated("an integer does not read back as its bytes") }
        }
        guard bytes.count >= 8 else { return }
        let seconds = Double(bitPattern: raw.loadUnaligned(as: UInt64.self))
        let text = PostgresText.timestamp(Date(timeIntervalSince1970: seconds))
        guard text.hasSuffix("+00") || text.hasSuffix("+00 BC"), text.count >= 26 else { violated("a timestamp in another form: \(text)") }
    }
}
