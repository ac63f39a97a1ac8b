/// A QR code (ISO/IEC 18004) of a short text, for the host's check-in link: byte mode, error
/// correction level M, versions 1 to 6 (up to 106 bytes, enough for any link Moim makes), the
/// mask with the lowest penalty. Drawn as one SVG path.
public struct QRCode {
    /// `modules[y][x]`, true for dark.
    public let modules: [[Bool]]
    public var size: Int { modules.count }

    /// Data codewords and error-correction blocks at level M, versions 1…6:
    /// (blocks, data codewords per block, EC codewords per block).
    private static let levelM: [(blocks: Int, data: Int, ec: Int)] = [
        (1, 16, 10), (1, 28, 16), (1, 44, 26), (2, 32, 18), (2, 43, 24), (4, 27, 16),
    ]
    private static let alignment: [[Int]] = [[], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34]]

    /// Nil when the text is too long for version 6.
    public init?(_ text: String, mask forcedMask: Int? = nil) {
        let bytes = Array(text.utf8)
        // Mode (4 bits) and length (8 bits) before the bytes.
        guard let version = Self.levelM.firstIndex(where: { $0.blocks * $0.data >= bytes.count + 2 }).map({ $0 + 1 }) else { return nil }
        let layout = Self.levelM[version - 1]
        let codewords = Self.interleave(Self.dataCodewords(bytes, capacity: layout.blocks * layout.data), layout)
        var grid = Grid(version: version)
        grid.placeFunctionPatterns(alignment: Self.alignment[version - 1])
        grid.placeData(codewords)
        let masks = forcedMask.map { [$0] } ?? Array(0..<8)
        var best: (penalty: Int, modules: [[Bool]])?
        for mask in masks {
            var candidate = grid
            candidate.applyMask(mask)
            candidate.placeFormat(mask: mask)
            let penalty = candidate.penalty()
            if let current = best, current.penalty <= penalty { continue }
            best = (penalty, candidate.dark)
        }
        guard let best else { return nil }
        modules = best.modules
    }

    /// An SVG path of the dark modules, one unit each, with a quiet zone of 4 around.
    public var svgPath: String {
        var path = ""
        for (y, row) in modules.enumerated() {
            for (x, dark) in row.enumerated() where dark { path += "M\(x + 4) \(y + 4)h1v1h-1z" }
        }
        return path
    }

    // MARK: - Codewords

    private static func dataCodewords(_ bytes: [UInt8], capacity: Int) -> [UInt8] {
        var bits = BitBuffer()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: 8)
        for byte in bytes { bits.append(Int(byte), count: 8) }
        bits.append(0, count: min(4, capacity * 8 - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var codewords = bits.bytes
        var pad: UInt8 = 0xEC
        while codewords.count < capacity {
            codewords.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return codewords
    }

    /// Splits into blocks, adds each block's Reed–Solomon codewords, interleaves.
    private static func interleave(_ data: [UInt8], _ layout: (blocks: Int, data: Int, ec: Int)) -> [UInt8] {
        let blocks = (0..<layout.blocks).map { Array(data[($0 * layout.data)..<(($0 + 1) * layout.data)]) }
        let corrections = blocks.map { ReedSolomon.remainder($0, degree: layout.ec) }
        var result: [UInt8] = []
        for index in 0..<layout.data { for block in blocks { result.append(block[index]) } }
        for index in 0..<layout.ec { for block in corrections { result.append(block[index]) } }
        return result
    }
}

private struct BitBuffer {
    private(set) var bits: [Bool] = []
    var count: Int { bits.count }

    mutating func append(_ value: Int, count: Int) {
        guard count > 0 else { return }
        for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
    }

    var bytes: [UInt8] {
        stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<min(start + 8, bits.count)].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
    }
}

/// Reed–Solomon over GF(256) with the QR polynomial x⁸ + x⁴ + x³ + x² + 1.
private enum ReedSolomon {
    static let (exp, log): ([UInt8], [Int]) = {
        var exp = [UInt8](repeating: 0, count: 512), log = [Int](repeating: 0, count: 256)
        var value = 1
        for power in 0..<255 {
            exp[power] = UInt8(value)
            log[value] = power
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        for power in 255..<512 { exp[power] = exp[power - 255] }
        return (exp, log)
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        a == 0 || b == 0 ? 0 : exp[log[Int(a)] + log[Int(b)]]
    }

    /// The generator ∏ (x − αⁱ), i < degree, highest coefficient first (that 1 left out).
    static func generator(_ degree: Int) -> [UInt8] {
        var poly: [UInt8] = [1]
        for power in 0..<degree {
            var next = [UInt8](repeating: 0, count: poly.count + 1)
            for (index, coefficient) in poly.enumerated() {
                next[index] ^= coefficient
                next[index + 1] ^= multiply(coefficient, exp[power])
            }
            poly = next
        }
        return Array(poly.dropFirst())
    }

    static func remainder(_ data: [UInt8], degree: Int) -> [UInt8] {
        let generator = generator(degree)
        var remainder = [UInt8](repeating: 0, count: degree)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for index in 0..<degree { remainder[index] ^= multiply(generator[index], factor) }
        }
        return remainder
    }
}

private struct Grid {
    var dark: [[Bool]]
    var reserved: [[Bool]]
    let size: Int

    init(version: Int) {
        size = 17 + 4 * version
        dark = Array(repeating: Array(repeating: false, count: size), count: size)
        reserved = dark
    }

    private mutating func set(_ x: Int, _ y: Int, _ value: Bool) {
        dark[y][x] = value
        reserved[y][x] = true
    }

    mutating func placeFunctionPatterns(alignment: [Int]) {
        for (cx, cy) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 {
                    let x = cx + dx, y = cy + dy
                    guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
                    let ring = max(abs(dx), abs(dy))
                    set(x, y, ring != 2 && ring != 4)
                }
            }
        }
        for i in 8..<(size - 8) {
            set(i, 6, i % 2 == 0)
            set(6, i, i % 2 == 0)
        }
        for cy in alignment {
            for cx in alignment where !reserved[cy][cx] {
                for dy in -2...2 { for dx in -2...2 { set(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1) } }
            }
        }
        // The format areas (filled in by `placeFormat`) and the dark module.
        for i in 0..<9 {
            reserved[8][i] = true
            reserved[i][8] = true
        }
        for i in 0..<8 {
            reserved[8][size - 1 - i] = true
            reserved[size - 1 - i][8] = true
        }
        set(8, size - 8, true)
    }

    /// Codeword bits in the two-column zigzag from the bottom right, skipping column 6.
    mutating func placeData(_ codewords: [UInt8]) {
        var bit = 0
        let total = codewords.count * 8
        var right = size - 1
        var upward = true
        while right > 0 {
            if right == 6 { right -= 1 }
            for step in 0..<size {
                let y = upward ? size - 1 - step : step
                for x in [right, right - 1] where !reserved[y][x] {
                    dark[y][x] = bit < total && (codewords[bit / 8] >> (7 - bit % 8)) & 1 == 1
                    bit += 1
                }
            }
            upward.toggle()
            right -= 2
        }
    }

    mutating func applyMask(_ mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !reserved[y][x] {
                let flip = switch mask {
                case 0: (x + y) % 2 == 0
                case 1: y % 2 == 0
                case 2: x % 3 == 0
                case 3: (x + y) % 3 == 0
                case 4: (y / 2 + x / 3) % 2 == 0
                case 5: (x * y) % 2 + (x * y) % 3 == 0
                case 6: ((x * y) % 2 + (x * y) % 3) % 2 == 0
                default: ((x + y) % 2 + (x * y) % 3) % 2 == 0
                }
                if flip { dark[y][x].toggle() }
            }
        }
    }

    /// Level M (00) and the mask, BCH(15, 5) protected and XORed with 101010000010010.
    mutating func placeFormat(mask: Int) {
        let data = mask  // level M is 00
        var remainder = data << 10
        for shift in stride(from: 14, through: 10, by: -1) where remainder & (1 << shift) != 0 {
            remainder ^= 0x537 << (shift - 10)
        }
        let bits = ((data << 10) | remainder) ^ 0x5412
        let on = { (index: Int) in (bits >> index) & 1 == 1 }
        for i in 0...5 { dark[i][8] = on(i) }
        dark[7][8] = on(6)
        dark[8][8] = on(7)
        dark[8][7] = on(8)
        for i in 9...14 { dark[8][14 - i] = on(i) }
        for i in 0...7 { dark[8][size - 1 - i] = on(i) }
        for i in 8...14 { dark[size - 15 + i][8] = on(i) }
    }

    /// ISO 18004's four penalty rules: runs, 2×2 blocks, finder-like patterns, balance.
    func penalty() -> Int {
        var score = 0
        for line in [dark, transposed] {
            for row in line {
                var run = 1
                for x in 1..<size {
                    if row[x] == row[x - 1] {
                        run += 1
                    } else {
                        if run >= 5 { score += run - 2 }
                        run = 1
                    }
                }
                if run >= 5 { score += run - 2 }
                let pattern: [Bool] = [true, false, true, true, true, false, true]
                for x in 0...(size - 7) where Array(row[x..<(x + 7)]) == pattern {
                    let before = x >= 4 && row[(x - 4)..<x].allSatisfy { !$0 }
                    let after = x + 11 <= size && row[(x + 7)..<(x + 11)].allSatisfy { !$0 }
                    if before || after { score += 40 }
                }
            }
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) where dark[y][x] == dark[y][x + 1] && dark[y][x] == dark[y + 1][x] && dark[y][x] == dark[y + 1][x + 1] {
                score += 3
            }
        }
        let darkCount = dark.reduce(0) { $0 + $1.count { $0 } }
        score += abs(darkCount * 20 - size * size * 10) / (size * size) * 10
        return score
    }

    private var transposed: [[Bool]] { (0..<size).map { x in (0..<size).map { y in dark[y][x] } } }
}
