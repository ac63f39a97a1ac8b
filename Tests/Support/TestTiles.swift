import Foundation

/// Map tiles for tests, made here so that no test needs the internet: 256 × 256 PNGs, each a
/// colour of its own with its `z/x/y` written on it in large digits and a darker edge, so a
/// screenshot shows which tile went where. The label is also in a `tEXt` chunk, for asserts.
public enum TestTiles {
    public static func png(z: Int, x: Int, y: Int) -> [UInt8] {
        let size = 256
        let label = "\(z)/\(x)/\(y)"
        let seed = UInt32(truncatingIfNeeded: z &* 73_856_093 ^ x &* 19_349_663 ^ y &* 83_492_791)
        let base: [UInt8] = [UInt8(200 + seed % 40), UInt8(215 + (seed >> 8) % 35), UInt8(190 + (seed >> 16) % 40)]
        var pixels = [UInt8](repeating: 0, count: size * size * 3)
        for row in 0..<size {
            for column in 0..<size {
                let edge = row < 2 || column < 2
                let offset = (row * size + column) * 3
                for channel in 0..<3 { pixels[offset + channel] = edge ? base[channel] / 2 : base[channel] }
            }
        }
        // The label on three lines.
        for (line, text) in ["\(z)/", "\(x)/", "\(y)"].enumerated() {
            draw(text, into: &pixels, size: size, left: 16, top: 16 + line * 40)
        }
        var raw: [UInt8] = []
        raw.reserveCapacity(size * (size * 3 + 1))
        for row in 0..<size {
            raw.append(0)  // filter: none
            raw += pixels[(row * size * 3)..<((row + 1) * size * 3)]
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", bigEndian(UInt32(size)) + bigEndian(UInt32(size)) + [8, 2, 0, 0, 0])
        png += chunk("tEXt", Array("Title".utf8) + [0] + Array(label.utf8))
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return png
    }

    /// Writes tile `z/x/y` as `folder/z/x/y.png`, where a tile server's template finds it.
    public static func write(z: Int, x: Int, y: Int, to folder: String) throws {
        let directory = "\(folder)/\(z)/\(x)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(png(z: z, x: x, y: y)).write(to: URL(fileURLWithPath: "\(directory)/\(y).png"))
    }

    /// `text` in 3 × 5 digits, 6 pixels a dot.
    private static func draw(_ text: String, into pixels: inout [UInt8], size: Int, left: Int, top: Int) {
        var left = left
        for character in text {
            for (dotRow, bits) in (font[character] ?? []).enumerated() {
                for dotColumn in 0..<3 where bits & (4 >> dotColumn) != 0 {
                    for row in (top + dotRow * 6)..<min(size, top + dotRow * 6 + 6) {
                        for column in (left + dotColumn * 6)..<min(size, left + dotColumn * 6 + 6) {
                            let offset = (row * size + column) * 3
                            pixels.replaceSubrange(offset..<(offset + 3), with: [40, 50, 70])
                        }
                    }
                }
            }
            left += 24
        }
    }

    private static let font: [Character: [UInt8]] = [
        "0": [7, 5, 5, 5, 7], "1": [2, 6, 2, 2, 7], "2": [7, 1, 7, 4, 7], "3": [7, 1, 7, 1, 7], "4": [5, 5, 7, 1, 1],
        "5": [7, 4, 7, 1, 7], "6": [7, 4, 7, 5, 7], "7": [7, 1, 1, 1, 1], "8": [7, 5, 7, 5, 7], "9": [7, 5, 7, 1, 7],
        "/": [1, 1, 2, 4, 4],
    ]

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let last: UInt8 = offset + count == data.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<(offset + count)]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(b << 16 | a)
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
