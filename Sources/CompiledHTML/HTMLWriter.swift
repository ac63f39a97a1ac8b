/// Where compiled templates write a page: UTF-8 bytes, escaped as they go.
///
/// The code `TemplateCompiler` generates calls `write` with the template's text (already in
/// the page's language, catalog text inlined) and `escape` with the view's values. It is a
/// module of its own so that any target the CompileTemplates plugin builds can use it; the
/// methods are inlinable, so across modules they cost what they cost within one.
public struct HTMLWriter {
    public var bytes: [UInt8] = []
    /// The index of the page's language in the catalogs the templates were compiled with.
    public let language: Int

    @inlinable
    public init(languageIndex: Int, capacity: Int = 16 * 1024) {
        self.language = languageIndex
        bytes.reserveCapacity(capacity)
    }

    @inlinable
    public mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Text that is already HTML: rendered Markdown, a drawn route.
    @inlinable
    public mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    @inlinable
    public mutating func escape(_ text: String) {
        var text = text
        text.withUTF8 { escape($0) }
    }

    /// Part of a page rendered earlier, as it was written then.
    @inlinable
    public mutating func raw(_ fragment: HTMLFragment) {
        bytes.append(contentsOf: fragment.bytes)
    }

    @inlinable
    public mutating func escape(_ number: Int) {
        // Digits and a minus sign need no escaping.
        bytes.append(contentsOf: String(number).utf8)
    }

    @inlinable
    public mutating func escape(_ number: Int64) {
        bytes.append(contentsOf: String(number).utf8)
    }

    @inlinable
    public mutating func raw(_ number: Int) {
        escape(number)
    }

    @inlinable
    mutating func escape(_ text: UnsafeBufferPointer<UInt8>) {
        var start = 0
        for index in text.indices {
            let replacement: StaticString
            switch text[index] {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&#39;"
            default: continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<index]))
            write(replacement)
            start = index + 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...]))
    }
}

/// HTML rendered once and written as it is many times: the parts of a page that look the same
/// to every reader, kept between requests. Templates write it with `{{{name}}}` only.
public struct HTMLFragment: Sendable {
    public let bytes: [UInt8]

    @inlinable
    public init(_ writer: HTMLWriter) {
        bytes = writer.bytes
    }
}
