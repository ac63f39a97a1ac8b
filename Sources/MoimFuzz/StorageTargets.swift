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

    /// Stored comments' ids and parents (any pairs, loops and self-replies included) put in
    /// thread order: never a trap; each comment at most once; every reply after its parent;
    /// every top-level comment shown.
    static func threadOrder(_ bytes: UnsafeBufferPointer<UInt8>) {
        // Each pair of bytes is a comment: its id, and its parent (0 for none); ids repeat.
        let comments = stride(from: 0, to: bytes.count - 1, by: 2).map { offset -> (id: Int64?, parentID: Int64?) in
            (Int64(bytes[offset]), bytes[offset + 1] == 0 ? nil : Int64(bytes[offset + 1]))
        }
        let ordered = Storage.threadOrder(comments)
        guard ordered.allSatisfy(comments.indices.contains) else { violated("a position that is no comment") }
        let placed = Set(ordered)
        guard placed.count == ordered.count else { violated("a comment shown twice") }
        var shown = Set<Int64>()
        for index in ordered {
            if let parent = comments[index].parentID, !shown.contains(parent) { violated("a reply before its parent") }
            if let id = comments[index].id { shown.insert(id) }
        }
        guard comments.indices.allSatisfy({ comments[$0].parentID != nil || placed.contains($0) }) else { violated("a top-level comment left out") }
    }

    /// A stored row's list of widths, any text: never a trap; every width read is in range, and
    /// what is read is written back the same.
    static func widthList(_ bytes: UnsafeBufferPointer<UInt8>) {
        let widths = WidthList.widths(String(decoding: bytes, as: UTF8.self))
        guard widths.allSatisfy(WidthList.range.contains) else { violated("a width out of range") }
        guard WidthList.widths(WidthList.text(widths)) == widths else { violated("widths that do not read back") }
    }

    /// What another server's commit changed, as its `NOTIFY` payload says it, any text: never a
    /// trap; every change read names real rows (ids above 0) and writes back as it was read.
    static func changes(_ bytes: UnsafeBufferPointer<UInt8>) {
        let changes = Change.decode(String(decoding: bytes, as: UTF8.self))
        guard Change.decode(Change.encode(changes)) == changes else { violated("changes that do not read back") }
        for change in changes {
            switch change {
            case .talk(let id), .guestbook(let id), .meetup(let id), .notifications(let id), .member(let id), .crew(let id), .room(let id):
                guard id > 0 else { violated("a change of no row: \(change)") }
            case .message(let roomID, let messageID):
                guard roomID > 0, messageID > 0 else { violated("a change of no message: \(change)") }
            case .everything: break
            }
        }
    }

    /// A log position from a browser's cookie or from PostgreSQL's text, any bytes: never a
    /// trap; what is read writes back the same and compares as its number does.
    static func walPosition(_ bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        for position in [WALPosition(token: text), WALPosition(postgres: text)].compactMap({ $0 }) {
            guard WALPosition(token: position.token) == position else { violated("a position that does not read back") }
            let high = String(position.value >> 32, radix: 16), low = String(position.value & 0xFFFF_FFFF, radix: 16)
            guard WALPosition(postgres: high + "/" + low) == position else { violated("PostgreSQL's form of a position reads otherwise") }
        }
    }
}
