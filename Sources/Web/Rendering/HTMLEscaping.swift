import Mustache

/// HTML escaping over UTF-8 bytes, registered for templates as `{{% CONTENT_TYPE: HTML5 }}`.
///
/// swift-mustache's own escaper looks every Character up in a dictionary; this one scans
/// bytes and returns the string untouched when nothing needs escaping, which most text doesn't.
struct HTMLEscaping: MustacheContentType {
    static let name = "HTML5"

    func escapeText(_ text: String) -> String {
        Self.escape(text)
    }

    static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.contains(where: needsEscape) else { return String(decoding: bytes, as: UTF8.self) }
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 16)
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "\""): output.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "'"): output.append(contentsOf: "&#39;".utf8)
                default: output.append(byte)
                }
            }
            return String(decoding: output, as: UTF8.self)
        }
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }
}
