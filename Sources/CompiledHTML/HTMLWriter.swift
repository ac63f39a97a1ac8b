/// Where compiled templates write a page: UTF-8 bytes, escaped as they go, and a fingerprint
/// of everything written.
///
/// The code `TemplateCompiler` generates calls `write` with the template's text (already in
/// the page's language, catalog text inlined) and `escape` with the view's values. It is a
/// module of its own so that any target the CompileTemplates plugin builds can use it; the
/// methods are inlinable, so across modules they cost what they cost within one.
///
/// The fingerprint is what a page's `ETag` is made of: the template's text by where it lies in
/// the program (the same build writes the same text from the same place), every value by its
/// bytes, a kept fragment by its own fingerprint. A writer made with `writesBytes: false`
/// only takes the fingerprint, which is how a revalidating browser is answered `304` without
/// the page being written.
public struct HTMLWriter {
    public var bytes: [UInt8] = []
    public var fingerprint = Fingerprint()
    /// The index of the page's language in the catalogs the templates were compiled with.
    public let language: Int
    public let writesBytes: Bool

    @inlinable
    public init(languageIndex: Int, capacity: Int = 16 * 1024, writesBytes: Bool = true) {
        self.language = languageIndex
        self.writesBytes = writesBytes
        fingerprint.mix(UInt64(languageIndex))
        if writesBytes { bytes.reserveCapacity(capacity) }
    }

    @inlinable
    public mutating func write(_ text: StaticString) {
        fingerprint.mix(text)
        if writesBytes { text.withUTF8Buffer { bytes.append(contentsOf: $0) } }
    }

    /// Text that is already HTML: rendered Markdown, a drawn route.
    @inlinable
    public mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { text in
            fingerprint.add(text)
            if writesBytes { bytes.append(contentsOf: text) }
        }
    }

    /// Part of a page rendered earlier, as it was written then.
    @inlinable
    public mutating func raw(_ fragment: HTMLFragment) {
        fingerprint.mix(fragment.fingerprint)
        if writesBytes { bytes.append(contentsOf: fragment.bytes) }
    }

    @inlinable
    public mutating func escape(_ text: String) {
        var text = text
        text.withUTF8 { escape($0) }
    }

    @inlinable
    public mutating func escape(_ number: Int) {
        fingerprint.mix(UInt64(bitPattern: Int64(number)))
        // Digits and a minus sign need no escaping.
        if writesBytes { bytes.append(contentsOf: String(number).utf8) }
    }

    @inlinable
    public mutating func escape(_ number: Int64) {
        escape(Int(number))
    }

    @inlinable
    public mutating func raw(_ number: Int) {
        escape(number)
    }

    @inlinable
    mutating func escape(_ text: UnsafeBufferPointer<UInt8>) {
        fingerprint.add(text)
        guard writesBytes else { return }
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
            replacement.withUTF8Buffer { bytes.append(contentsOf: $0) }
            start = index + 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...]))
    }
}

/// HTML rendered once and written as it is many times: the parts of a page that look the same
/// to every reader, kept between requests. Templates write it with `{{{name}}}` only.
public struct HTMLFragment: Sendable {
    public let bytes: [UInt8]
    /// The fingerprint of what was written into it.
    public let fingerprint: UInt64

    @inlinable
    public init(_ writer: HTMLWriter) {
        bytes = writer.bytes
        fingerprint = writer.fingerprint.value
    }
}

/// A 64-bit fingerprint, the same in every process running the same build: FNV-1a's constants
/// over 8-byte words, each step followed by a shift so that high bits reach low ones. Not a
/// defence against anyone (nobody gains from making two pages collide); a weak `ETag`.
public struct Fingerprint: Sendable {
    public var value: UInt64 = 0xCBF2_9CE4_8422_2325

    @inlinable
    public init() {}

    @inlinable
    public mutating func mix(_ word: UInt64) {
        value = (value ^ word) &* 0x0000_0100_0000_01B3
        value ^= value >> 29
    }

    /// Static text by its place in this program's image: the same build in another process,
    /// loaded at another address, gives the same number.
    @inlinable
    public mutating func mix(_ text: StaticString) {
        guard text.hasPointerRepresentation else {
            mix(UInt64(text.unicodeScalar.value))
            return
        }
        let start = UInt(bitPattern: text.utf8Start) &- UInt(bitPattern: UnsafeRawPointer(#dsohandle))
        mix(UInt64(start) << 20 ^ UInt64(text.utf8CodeUnitCount))
    }

    @inlinable
    public mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        mix(UInt64(bytes.count))
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= bytes.count {
            mix(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var last: UInt64 = 0
        while offset < bytes.count {
            last = last << 8 | UInt64(bytes[offset])
            offset += 1
        }
        mix(last)
    }
}
