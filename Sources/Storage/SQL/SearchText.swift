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
