import Formats
import Foundation

/// Targets of the formats with no web in them (`Formats`).
enum FormatsTargets {
    /// GPX files: a track that parses has only points on Earth, and finite totals (`route` draws
    /// them); checked as a record takes it, it keeps at most its points, segments in order.
    static func gpx(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let parsed = try? GPXTrack(Data(bytes)) else { return }
        guard let track = try? parsed.checked(now: Date(timeIntervalSince1970: 4_000_000_000)) else { return }
        guard track.points.count <= parsed.points.count else { violated("checking added points") }
        guard zip(track.points, track.points.dropFirst()).allSatisfy({ $0.0.segment <= $0.1.segment }) else { violated("segments out of order") }
        guard track.distance.isFinite, track.elevationGain.isFinite, track.duration.map(\.isFinite) ?? true else { violated("non-finite GPX totals") }
        let splits = track.splits()
        guard zip(splits, splits.dropFirst()).allSatisfy({ $0 <= $1 }) else { violated("splits out of order") }
        let stored = GPXTrack(encoded: track.encoded)
        guard stored.points.count == track.points.count else { violated("a parsed point lost in storage") }
        guard stored.trimmed(200).points.count <= stored.points.count else { violated("trimming added points") }
    }

    /// The check-in link's QR code (its host part comes from the request's `Host` when no base
    /// URL is set): square, of a version 1 to 6, or nil past 106 bytes.
    static func qrCode(_ bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let code = QRCode(text) else {
            if text.utf8.count <= 104 { violated("a short text without a QR code") }
            return
        }
        guard [21, 25, 29, 33, 37, 41].contains(code.size), code.modules.allSatisfy({ $0.count == code.size }) else { violated("QR size") }
    }

    /// Backup archives' headers: a header that parses has a name and a size in range, and
    /// what Moim writes reads back the same.
    static func tarHeader(_ bytes: UnsafeBufferPointer<UInt8>) {
        var block = Data(bytes.prefix(TarArchive.block))
        block.append(Data(count: TarArchive.block - block.count))
        if let (name, size) = try? TarArchive.parse(block) {
            guard !name.isEmpty, size >= 0, size < 8 << 30 else { violated("a tar header out of range") }
        }
        let name = String(decoding: bytes.prefix(99), as: UTF8.self)
        let size = bytes.suffix(8).reduce(0) { $0 << 8 | Int($1) } & ((1 << 33) - 1)
        guard let written = try? TarArchive.header(name: name, size: size, modified: Date()) else { return }
        guard let (readName, readSize) = try? TarArchive.parse(written), readName == name, readSize == size else {
            violated("a header Moim writes does not read back")
        }
    }
}
