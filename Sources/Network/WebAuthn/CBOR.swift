/// The CBOR (RFC 8949) that WebAuthn sends: integers, byte and text strings, arrays, maps,
/// simple values. Definite lengths only, at most 16 levels deep; floats and indefinite lengths
/// are refused, as no authenticator answer needs them. A length past the input is an error,
/// never a trap.
public indirect enum CBOR: Equatable, Sendable {
    case unsigned(UInt64)
    /// -1 - n
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    case map([(CBOR, CBOR)])
    case bool(Bool)
    case null

    public struct Malformed: Error, Equatable {}

    /// Reads one item from the start of `bytes`; `rest` is where it ended.
    public static func decode(_ bytes: ArraySlice<UInt8>) throws(Malformed) -> (item: CBOR, rest: ArraySlice<UInt8>) {
        var reader = Reader(bytes: bytes)
        let item = try reader.item(depth: 0)
        return (item, reader.bytes)
    }

    /// Reads `bytes` as exactly one item.
    public static func decodeWhole(_ bytes: [UInt8]) throws(Malformed) -> CBOR {
        let (item, rest) = try decode(bytes[...])
        guard rest.isEmpty else { throw Malformed() }
        return item
    }

    /// A map's value for an integer key (COSE's labels) or a text key (attestation's).
    public subscript(key: Int64) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        let wanted: CBOR = key >= 0 ? .unsigned(UInt64(key)) : .negative(UInt64(-(key + 1)))
        return pairs.first { $0.0 == wanted }?.1
    }

    public subscript(key: String) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.0 == .text(key) }?.1
    }

    public var integer: Int64? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int64.max) ? Int64(value) : nil
        case .negative(let value): value < UInt64(Int64.max) ? -1 - Int64(value) : nil
        default: nil
        }
    }

    public var byteString: [UInt8]? { if case .bytes(let bytes) = self { bytes } else { nil } }
    public var textString: String? { if case .text(let text) = self { text } else { nil } }

    public static func == (lhs: CBOR, rhs: CBOR) -> Bool {
        switch (lhs, rhs) {
        case (.unsigned(let a), .unsigned(let b)), (.negative(let a), .negative(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.text(let a), .text(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.map(let a), .map(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    private struct Reader {
        var bytes: ArraySlice<UInt8>

        mutating func byte() throws(Malformed) -> UInt8 {
            guard let first = bytes.first else { throw Malformed() }
            bytes = bytes.dropFirst()
            return first
        }

        mutating func take(_ count: UInt64) throws(Malformed) -> ArraySlice<UInt8> {
            guard count <= UInt64(bytes.count) else { throw Malformed() }
            let taken = bytes.prefix(Int(count))
            bytes = bytes.dropFirst(Int(count))
            return taken
        }

        /// The argument after an initial byte's low five bits.
        mutating func argument(_ info: UInt8) throws(Malformed) -> UInt64 {
            switch info {
            case 0..<24: return UInt64(info)
            case 24, 25, 26, 27:
                let count = 1 << Int(info - 24)
                return try take(UInt64(count)).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            default: throw Malformed()
            }
        }

        mutating func item(depth: Int) throws(Malformed) -> CBOR {
            guard depth < 16 else { throw Malformed() }
            let initial = try byte()
            let major = initial >> 5, info = initial & 0x1F
            switch major {
            case 0: return .unsigned(try argument(info))
            case 1: return .negative(try argument(info))
            case 2: return .bytes(Array(try take(try argument(info))))
            case 3:
                guard let text = String(validating: try take(try argument(info)), as: UTF8.self) else { throw Malformed() }
                return .text(text)
            case 4:
                let count = try argument(info)
                // Each item takes a byte at least: a count past what is left is a lie.
                guard count <= UInt64(bytes.count) else { throw Malformed() }
                var items: [CBOR] = []
                for _ in 0..<count { items.append(try item(depth: depth + 1)) }
                return .array(items)
            case 5:
                let count = try argument(info)
                guard count <= UInt64(bytes.count / 2) else { throw Malformed() }
                var pairs: [(CBOR, CBOR)] = []
                for _ in 0..<count { pairs.append((try item(depth: depth + 1), try item(depth: depth + 1))) }
                return .map(pairs)
            case 6:
                _ = try argument(info)  // a tag: its item stands for itself
                return try item(depth: depth + 1)
            default:
                switch info {
                case 20: return .bool(false)
                case 21: return .bool(true)
                case 22, 23: return .null
                default: throw Malformed()
                }
            }
        }
    }
}
