/// Where compiled templates write a page: UTF-8 bytes, escaped as they go.
///
/// The code `TemplateCompiler` generates calls `write` with the template's text (already in
/// `language`, catalog text inlined) and `escape` with the view's values.
struct HTMLWriter {
    private(set) var bytes: [UInt8] = []
    /// The index of the page's language in the catalogs the templates were compiled with.
    let language: Int

    init(_ language: Language, capacity: Int = 16 * 1024) {
        self.language = language.templateIndex
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Text that is already HTML: rendered Markdown, a drawn route.
    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func escape(_ text: String) {
        var text = text
        text.withUTF8 { escape($0) }
    }

    mutating func escape(_ number: Int) {
        // Digits and a minus sign need no escaping.
        bytes.append(contentsOf: String(number).utf8)
    }

    mutating func escape(_ number: Int64) {
        bytes.append(contentsOf: String(number).utf8)
    }

    mutating func raw(_ number: Int) {
        escape(number)
    }

    private mutating func escape(_ text: UnsafeBufferPointer<UInt8>) {
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

extension Language {
    /// Position in the catalogs the template compiler inlined (`--languages en,ko`).
    var templateIndex: Int {
        switch self {
        case .en: 0
        case .ko: 1
        }
    }
}
