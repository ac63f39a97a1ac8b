import Foundation

/// The little of POSIX ustar (`tar`) a backup needs: regular files with short relative
/// names, written and read as streams so that a database of gigabytes never sits in memory.
/// `tar -tvf` lists what Moim writes; Moim reads only what it writes and refuses the rest.
public enum TarArchive {
    public static let block = 512

    public struct Writer {
        private let handle: FileHandle

        public init(_ handle: FileHandle) {
            self.handle = handle
        }

        /// Adds a file of `size` bytes whose content `body` writes through `write`.
        public func add(_ name: String, size: Int, modified: Date = Date(), body: ((Data) throws -> Void) throws -> Void) throws {
            try handle.write(contentsOf: TarArchive.header(name: name, size: size, modified: modified))
            var written = 0
            try body { chunk in
                written += chunk.count
                try handle.write(contentsOf: chunk)
            }
            guard written == size else { throw TarError.sizeChanged(name) }
            let padding = (TarArchive.block - size % TarArchive.block) % TarArchive.block
            try handle.write(contentsOf: Data(count: padding))
        }

        public func add(_ name: String, data: Data) throws {
            try add(name, size: data.count) { write in try write(data) }
        }

        /// Two empty blocks end an archive.
        public func finish() throws {
            try handle.write(contentsOf: Data(count: 2 * TarArchive.block))
        }
    }

    public struct Reader {
        private let handle: FileHandle

        public init(_ handle: FileHandle) {
            self.handle = handle
        }

        /// The next entry's name and size, or nil at the end of the archive.
        public mutating func next() throws -> (name: String, size: Int)? {
            let header = try read(TarArchive.block)
            guard header.count == TarArchive.block else { throw TarError.truncated }
            if header.allSatisfy({ $0 == 0 }) { return nil }
            return try TarArchive.parse(header)
        }

        /// The entry's content, `size` bytes in chunks, then its padding.
        public mutating func body(size: Int, _ chunk: (Data) throws -> Void) throws {
            var left = size
            while left > 0 {
                let data = try read(min(left, 1 << 20))
                guard !data.isEmpty else { throw TarError.truncated }
                try chunk(data)
                left -= data.count
            }
            let padding = (TarArchive.block - size % TarArchive.block) % TarArchive.block
            guard try read(padding).count == padding else { throw TarError.truncated }
        }

        private func read(_ count: Int) throws -> Data {
            var data = Data()
            while data.count < count {
                guard let more = try handle.read(upToCount: count - data.count), !more.isEmpty else { break }
                data += more
            }
            return data
        }
    }

    public static func header(name: String, size: Int, modified: Date) throws -> Data {
        let nameBytes = Array(name.utf8)
        guard !nameBytes.isEmpty, nameBytes.count < 100, nameBytes.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else { throw TarError.badName(name) }
        var header = [UInt8](repeating: 0, count: block)
        func put(_ bytes: [UInt8], at offset: Int) { header.replaceSubrange(offset..<offset + bytes.count, with: bytes) }
        func octal(_ value: Int, width: Int) -> [UInt8] {
            Array(String(value, radix: 8).leftPadded(to: width - 1).utf8) + [0]
        }
        put(nameBytes, at: 0)
        put(octal(0o644, width: 8), at: 100)
        put(octal(0, width: 8), at: 108)
        put(octal(0, width: 8), at: 116)
        put(octal(size, width: 12), at: 124)
        put(octal(Checked.rounded(modified.timeIntervalSince1970, in: 0...0o77777777777) ?? 0, width: 12), at: 136)
        put(Array(repeating: UInt8(ascii: " "), count: 8), at: 148)
        header[156] = UInt8(ascii: "0")
        put(Array("ustar\u{0}00".utf8), at: 257)
        let sum = header.reduce(0) { $0 + Int($1) }
        put(Array(String(sum, radix: 8).leftPadded(to: 6).utf8) + [0, UInt8(ascii: " ")], at: 148)
        return Data(header)
    }

    /// A header of a regular file as Moim writes them: a checked checksum, a name without a
    /// prefix, a size in octal that fits in memory's terms.
    public static func parse(_ header: Data) throws -> (name: String, size: Int) {
        let bytes = [UInt8](header)
        guard bytes.count == block, Array(bytes[257..<263]) == Array("ustar\u{0}".utf8) else { throw TarError.notAnArchive }
        guard let stored = octalValue(bytes[148..<156]) else { throw TarError.notAnArchive }
        let sum = bytes.enumerated().reduce(0) { total, element in total + ((148..<156).contains(element.offset) ? 32 : Int(element.element)) }
        guard sum == stored else { throw TarError.badChecksum }
        guard bytes[156] == UInt8(ascii: "0") || bytes[156] == 0, bytes[345..<500].allSatisfy({ $0 == 0 }) else { throw TarError.unsupportedEntry }
        let nameBytes = bytes[0..<100].prefix { $0 != 0 }
        guard let name = String(bytes: nameBytes, encoding: .utf8), !name.isEmpty else { throw TarError.notAnArchive }
        guard let size = octalValue(bytes[124..<136]) else { throw TarError.notAnArchive }
        return (name, size)
    }

    /// An octal field: digits, then NULs or spaces. Eleven digits at most, so no overflow.
    public static func octalValue(_ field: ArraySlice<UInt8>) -> Int? {
        let digits = field.drop { $0 == UInt8(ascii: " ") }.prefix { $0 != 0 && $0 != UInt8(ascii: " ") }
        guard !digits.isEmpty, digits.count <= 11, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "7")).contains($0) })
        else { return nil }
        return digits.reduce(0) { $0 * 8 + Int($1 - UInt8(ascii: "0")) }
    }
}

public enum TarError: Error, Equatable, CustomStringConvertible {
    case notAnArchive, badChecksum, truncated, unsupportedEntry
    case badName(String)
    case sizeChanged(String)

    public var description: String {
        switch self {
        case .notAnArchive: "not a tar archive written by moim backup"
        case .badChecksum: "a header's checksum is wrong: the archive is damaged"
        case .truncated: "the archive ends too early: it is incomplete"
        case .unsupportedEntry: "the archive holds something other than plain files"
        case .badName(let name): "unexpected name in the archive: \(name.debugDescription)"
        case .sizeChanged(let name): "\(name) changed size while it was being archived"
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
