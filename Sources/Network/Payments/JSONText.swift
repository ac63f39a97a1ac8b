/// JSON written by hand for request bodies: strings escaped per RFC 8259 §7, keys sorted so
/// that the same body is the same bytes.
enum JSONText: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case object([String: JSONText])

    var rendered: String {
        switch self {
        case .string(let text): Self.quoted(text)
        case .integer(let number): String(number)
        case .object(let fields):
            "{" + fields.sorted { $0.key < $1.key }.map { Self.quoted($0.key) + ":" + $0.value.rendered }.joined(separator: ",") + "}"
        }
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar == "\u{2028}" || scalar == "\u{2029}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
