import Foundation

/// PostgreSQL's binary formats for the values Moim reads (the `*send` functions of its
/// types); every length is checked, so a value of another shape is nil, never a trap.
enum PostgresBinary {
    /// A big-endian unsigned integer of up to 8 bytes.
    static func unsigned(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// `int2`, `int4` or `int8`: big-endian two's complement.
    static func integer(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        switch bytes.count {
        case 2: Int64(Int16(bitPattern: UInt16(truncatingIfNeeded: unsigned(bytes))))
        case 4: Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: unsigned(bytes))))
        case 8: Int64(bitPattern: unsigned(bytes))
        default: nil
        }
    }

    /// `numeric` (what `sum` of integers gives): a count of base-10000 digits, the weight of
    /// the first, a sign and a display scale, then the digits; nil for NaN or a bad shape.
    static func numeric(_ bytes: UnsafeRawBufferPointer) -> Double? {
        guard bytes.count >= 8 else { return nil }
        func int16(at offset: Int) -> Int { Int(Int16(bitPattern: UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]))) }
        let digits = int16(at: 0), weight = int16(at: 2), sign = UInt16(truncatingIfNeeded: int16(at: 4))
        guard digits >= 0, bytes.count == 8 + 2 * digits, sign == 0 || sign == 0x4000 else { return nil }
        var value = 0.0
        for index in 0..<digits {
            let digit = int16(at: 8 + 2 * index)
            guard (0..<10_000).contains(digit) else { return nil }
            value += Double(digit) * pow(10_000, Double(weight - index))
        }
        return sign == 0x4000 ? -value : value
    }

    /// `timestamptz` is microseconds since 2000-01-01 00:00 UTC.
    static func date(microsecondsSince2000 microseconds: Int64) -> Date {
        // Summed as SQLite's dates are (`StoredDate.parse`): whole days from the reference date
        // (2001-01-01, 366 days after 2000's), then the time of day with its fraction. Summed
        // at once, the same stored instant could be a `Date` one bit apart on the two engines.
        let day: Int64 = 86_400_000_000
        var (days, rest) = microseconds.quotientAndRemainder(dividingBy: day)
        if rest < 0 { (days, rest) = (days - 1, rest + day) }
        let timeOfDay = Double(rest / 1_000_000) + Double(rest % 1_000_000 * 1_000) / 1_000_000_000
        return Date(timeIntervalSinceReferenceDate: Double((days - 366) * 86_400) + timeOfDay)
    }
}

/// Values written as text for PostgreSQL to read in the parameter's type.
enum PostgresText {
    /// Shortest text that reads back as the same `Double`; PostgreSQL's own names otherwise.
    static func double(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        return "\(value)"
    }

    /// `2026-11-24 09:30:00.250+00`: to the millisecond, as SQLite keeps dates, so that both
    /// engines store and compare the same instants. Years before 1 are written with `BC`
    /// (`Date.distantPast` is 0000-12-30, which is 0001-12-30 BC).
    static func timestamp(_ date: Date) -> String {
        let milliseconds = date.milliseconds(.down) ?? 0
        let (days, inDay) = floorDivision(milliseconds, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        return pad(year > 0 ? year : 1 - year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + " " + pad(inDay / 3_600_000, 2) + ":"
            + pad(inDay / 60_000 % 60, 2) + ":" + pad(inDay / 1_000 % 60, 2) + "." + pad(inDay % 1_000, 3) + "+00" + (year > 0 ? "" : " BC")
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
