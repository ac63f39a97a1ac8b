/// What someone typed into a search box, made safe to hand to SQLite.
///
/// Control characters are dropped (a NUL ends an FTS5 query string early and made it a
/// syntax error; `\u{1}`/`\u{2}` mark matches in excerpts), the text is trimmed and cut to
/// `maximumLength` code points. The FTS5 phrase quotes the whole text, so no operator
/// (`OR`, `NEAR`, `*`, `^`, column filters) typed by a visitor is ever interpreted.
public struct SearchText: Sendable, Equatable {
    public static let maximumLength = 100

    /// The cleaned text; empty when nothing searchable was typed.
    public let text: String

    public init(_ raw: String) {
        var scalars = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars where scalar.properties.generalCategory != .control {
            scalars.append(scalar)
        }
        let cleaned = String(scalars).trimmingCharacters(in: .whitespacesAndNewlines)
        var kept = ""
        var length = 0
        for character in cleaned {
            length += character.unicodeScalars.count
            guard length <= Self.maximumLength else { break }
            kept.append(character)
        }
        text = kept
    }

    public var isEmpty: Bool { text.isEmpty }

    /// The trigram index finds substrings of three code points or more; shorter text is
    /// searched with `LIKE` over a bounded set of rows.
    public var usesIndex: Bool { text.unicodeScalars.count >= 3 }

    /// Two Hangul syllables, below what a trigram index finds: looked up in `postGrams`.
    public var isHangulPair: Bool {
        let scalars = Array(text.unicodeScalars)
        return scalars.count == 2 && scalars.allSatisfy(Self.isHangulSyllable)
    }

    /// Each pair of adjacent Hangul syllables in `body`, once: what `postGrams` holds of a post.
    /// PostgreSQL's migration computes the same from stored posts (`SearchKeysSchema`).
    public static func hangulPairs(in body: String) -> Set<String> {
        var pairs = Set<String>()
        var previous: Unicode.Scalar?
        for scalar in body.unicodeScalars {
            if let first = previous, isHangulSyllable(first), isHangulSyllable(scalar) {
                var pair = String.UnicodeScalarView()
                pair.append(first)
                pair.append(scalar)
                pairs.insert(String(pair))
            }
            previous = scalar
        }
        return pairs
    }

    /// 가 (U+AC00) to 힣 (U+D7A3).
    private static func isHangulSyllable(_ scalar: Unicode.Scalar) -> Bool { (0xAC00...0xD7A3).contains(scalar.value) }

    /// The text lower-cased as SQL's `lower()` does on both engines (ASCII letters only), as
    /// `nameKeys` holds names.
    public var asciiLowercased: String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar(UInt8(truncatingIfNeeded: $0.value) | 0x20) : $0 }))
    }

    /// The range of `nameKeys` holding names that contain the text: keys from the text
    /// lower-cased to the text followed by the last code point.
    public var keyRange: (lower: String, upper: String) { (asciiLowercased, asciiLowercased + "\u{10FFFF}") }

    /// How many keys a name search reads at most before it orders what it found: a bound on
    /// its cost whatever the number of names sharing a common prefix. Meetups read more, since
    /// the past ones among them are left out after.
    public static let keysRead = 40
    public static let meetupKeysRead = 200

    /// True when the text holds a letter with an upper and a lower case: only then does a
    /// match ignoring case differ from an exact one.
    public var hasCase: Bool { text.lowercased() != text || text.uppercased() != text }

    /// An FTS5 string: the text as one phrase, its double quotes doubled.
    public var phrase: String { "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// A `LIKE … ESCAPE '\'` pattern matching the text anywhere.
    public var containsPattern: String { "%" + likeEscaped + "%" }

    private var likeEscaped: String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }
}

import Foundation
