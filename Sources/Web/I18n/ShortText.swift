/// Short texts of numbers and words — dates, counts — written into one string in one
/// allocation. String interpolation makes a buffer per piece: interpolating the dates and
/// counts of twenty post cards cost a tenth of the feed's time.
extension String {
    /// The text `write` appends, in a buffer of `capacity` bytes (what does not fit is left
    /// out, and a character cut in two is repaired: never a trap).
    init(capacity: Int, _ write: (inout ShortText) -> Void) {
        self.init(unsafeUninitializedCapacity: capacity) { buffer in
            var text = ShortText(buffer)
            write(&text)
            return text.count
        }
    }
}

struct ShortText {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    fileprivate init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// Each piece in turn: `text.append(year, "년 ", month, "월")`.
    mutating func append<each Piece: ShortTextPiece>(_ pieces: repeat each Piece) {
        repeat (each pieces).write(to: &self)
    }

    /// `number` with its thousands grouped by commas: "12,345".
    mutating func appendGrouped(_ number: Int) {
        if number < 0 { write(UInt8(ascii: "-")) }
        writeDigits(of: number.magnitude, width: 1, groupingThousands: true)
    }

    fileprivate mutating func write(_ text: some StringProtocol) {
        for byte in text.utf8 { write(byte) }
    }

    private mutating func write(_ byte: UInt8) {
        assert(count < buffer.count, "ShortText's capacity is too small")
        guard count < buffer.count else { return }
        buffer[count] = byte
        count += 1
    }

    /// `number` in decimal, with leading zeros up to `width` digits.
    fileprivate mutating func write(_ number: Int, width: Int) {
        if number < 0 { write(UInt8(ascii: "-")) }
        writeDigits(of: number.magnitude, width: width, groupingThousands: false)
    }

    private mutating func writeDigits(of magnitude: UInt, width: Int, groupingThousands: Bool) {
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 { digits += 1; rest /= 10 }
        digits = max(digits, width)
        let commas = groupingThousands ? (digits - 1) / 3 : 0
        let length = digits + commas
        guard buffer.count - count >= length else { return assertionFailure("ShortText's capacity is too small") }
        // From the last digit back.
        var value = magnitude
        var position = count + length - 1
        for index in 0..<digits {
            if groupingThousands, index > 0, index % 3 == 0 {
                buffer[position] = UInt8(ascii: ",")
                position -= 1
            }
            buffer[position] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
            position -= 1
        }
        count += length
    }
}

/// What `ShortText.append` takes: words, numbers, and numbers padded with zeros.
protocol ShortTextPiece {
    func write(to text: inout ShortText)
}

extension String: ShortTextPiece {
    func write(to text: inout ShortText) { text.write(self) }
}

extension Substring: ShortTextPiece {
    func write(to text: inout ShortText) { text.write(self) }
}

extension Int: ShortTextPiece {
    func write(to text: inout ShortText) { text.write(self, width: 1) }
}

/// A number with leading zeros up to `width` digits: `Digits(7, width: 2)` is "07".
struct Digits: ShortTextPiece {
    let value: Int
    let width: Int

    init(_ value: Int, width: Int) {
        self.value = value
        self.width = width
    }

    func write(to text: inout ShortText) { text.write(value, width: width) }
}
