import Foundation

/// The one place numbers from outside become Swift numbers: form fields, query strings, GPX
/// files and stored rows. Every function returns nil for anything it cannot represent
/// exactly in its range — never traps, since a trap would end every user's request at once.
///
/// `Int(someDouble)` traps on NaN, infinity and values past `Int.max`, and `+`/`*` trap on
/// overflow, so neither appears on outside data anywhere else.
public enum Checked {
    /// A whole number written in ASCII digits (an optional leading `-`), within `range`.
    public static func integer(_ text: some StringProtocol, in range: ClosedRange<Int>) -> Int? {
        guard text.utf8.count <= 20, let value = Int(text), range.contains(value) else { return nil }
        return value
    }

    /// A decimal number such as `10.5` or `10,5` (a decimal comma, as many keyboards type it),
    /// finite and within `range`. Exponents, `inf` and `nan` are not numbers people type.
    public static func decimal(_ text: some StringProtocol, in range: ClosedRange<Double>) -> Double? {
        let normalised = text.replacingOccurrences(of: ",", with: ".")
        guard !normalised.isEmpty, normalised.utf8.count <= 32,
              normalised.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) }),
              let value = Double(normalised), value.isFinite, range.contains(value)
        else { return nil }
        return value
    }

    /// `value` rounded to the nearest whole number, if it is finite and the result is within `range`.
    public static func rounded(_ value: Double, in range: ClosedRange<Int>) -> Int? {
        guard value.isFinite, let whole = Int(exactly: value.rounded()), range.contains(whole) else { return nil }
        return whole
    }

    /// A coordinate for drawing: rounded, with anything non-finite or absurd pinned to the
    /// edge of a generous canvas rather than trapping.
    public static func pixel(_ value: Double) -> Int {
        guard value.isFinite else { return 0 }
        return Int(min(max(value, -1_000_000), 1_000_000).rounded())
    }

    /// A duration typed as `45:30` (minutes:seconds), `1:02:03` (hours:minutes:seconds) or a
    /// plain number of minutes, in seconds, up to `maximum`. Minutes and seconds after the
    /// first part must be below 60.
    public static func duration(_ text: some StringProtocol, maximum: Int) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } })
        else { return nil }
        let values = parts.compactMap { integer($0, in: 0...maximum) }
        guard values.count == parts.count, values.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        let units = parts.count == 1 ? [60] : parts.count == 2 ? [60, 1] : [3600, 60, 1]
        var total = 0
        for (value, unit) in zip(values, units) {
            let (product, overflowed) = value.multipliedReportingOverflow(by: unit)
            guard !overflowed else { return nil }
            let (sum, overflowedSum) = total.addingReportingOverflow(product)
            guard !overflowedSum else { return nil }
            total = sum
        }
        return total <= maximum ? total : nil
    }

    /// The years a date typed into a form may fall in; anything else is a typing mistake, and
    /// years far outside it upset calendar arithmetic downstream.
    public static let years = 1900...2200

    /// A local date and time as `<input type="datetime-local">` sends it (`2026-11-28T06:00`,
    /// seconds optional), in `timeZone`.
    public static func localDateTime(_ text: some StringProtocol, in timeZone: TimeZone) -> Date? {
        let text = String(text)
        guard text.utf8.count == 16 || text.utf8.count == 19 else { return nil }
        let bytes = Array(text.utf8)
        let shape = text.utf8.count == 16 ? "dddd-dd-ddTdd:dd" : "dddd-dd-ddTdd:dd:dd"
        for (byte, expected) in zip(bytes, shape.utf8) {
            let matches = expected == UInt8(ascii: "d") ? (0x30...0x39).contains(byte) : byte == expected
            guard matches else { return nil }
        }
        func number(_ range: Range<Int>) -> Int { bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        var components = DateComponents()
        components.year = number(0..<4)
        components.month = number(5..<7)
        components.day = number(8..<10)
        components.hour = number(11..<13)
        components.minute = number(14..<16)
        components.second = bytes.count == 19 ? number(17..<19) : 0
        guard years.contains(components.year ?? 0), (1...12).contains(components.month ?? 0), (1...31).contains(components.day ?? 0),
              (0...23).contains(components.hour ?? 0), (0...59).contains(components.minute ?? 0), (0...59).contains(components.second ?? 0)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        // Refuse dates the calendar would roll over (31 February becoming 3 March).
        guard let date = calendar.date(from: components),
              calendar.component(.day, from: date) == components.day, calendar.component(.month, from: date) == components.month
        else { return nil }
        return date
    }

    /// Whether `text` is a token of base64url letters (`A–Z a–z 0–9 - _`) of a length in `lengths`.
    public static func isToken(_ text: some StringProtocol, lengths: ClosedRange<Int>) -> Bool {
        lengths.contains(text.utf8.count)
            && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F }
    }

    /// An id from a URL or a form: a positive 64-bit integer in plain digits.
    public static func id(_ text: some StringProtocol) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 19, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              let value = Int64(text), value > 0 else { return nil }
        return value
    }
}
