import Foundation

/// Finds `#hashtags` and `@mentions` in plain text.
///
/// A tag is `#` then Unicode letters, digits or `_` (at least one letter, 50 at most), not
/// preceded by a word character (so `a#b` and `&#39;` are not tags). A mention is `@` then
/// 3–20 of `a-z 0-9 _`, not preceded by a word character (so `mina@example.com` is no mention).
public enum References {
    public enum Piece: Equatable, Sendable {
        case text(String)
        /// The text as written and the normalised tag.
        case tag(String, String)
        /// The text as written and the lower-cased username.
        case mention(String, String)

        var isText: Bool {
            if case .text = self { return true }
            return false
        }

        var mention: String? {
            if case .mention(_, let name) = self { return name }
            return nil
        }
    }

    /// The tag as stored and looked up: NFC, lower-cased, so `#Run` and `#run` are one tag.
    public static func normalise(_ tag: String) -> String {
        tag.precomposedStringWithCanonicalMapping.lowercased()
    }

    /// A valid tag name (without `#`)?
    public static func isTag(_ name: String) -> Bool {
        (1...50).contains(name.unicodeScalars.count) && name.allSatisfy(isTagCharacter) && name.contains(where: \.isLetter)
    }

    public static func split(_ text: String) -> [Piece] {
        var pieces: [Piece] = []
        var plain = ""
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let previous: Character? = index > 0 ? characters[index - 1] : nil
            let startsWord = previous.map { !isTagCharacter($0) && $0 != "&" && $0 != "/" } ?? true
            if startsWord, character == "#" || character == "@" {
                var end = index + 1
                let isTag = character == "#"
                while end < characters.count, isTag ? isTagCharacter(characters[end]) : isUsernameCharacter(characters[end]) {
                    end += 1
                }
                let name = String(characters[(index + 1)..<end])
                let written = String(characters[index..<end])
                let piece: Piece? = isTag
                    ? (Self.isTag(name) ? .tag(written, normalise(name)) : nil)
                    : ((3...20).contains(name.count) ? .mention(written, name.lowercased()) : nil)
                if let piece {
                    if !plain.isEmpty { pieces.append(.text(plain)) }
                    plain = ""
                    pieces.append(piece)
                    index = end
                    continue
                }
            }
            plain.append(character)
            index += 1
        }
        if !plain.isEmpty { pieces.append(.text(plain)) }
        return pieces
    }

    static func isTagCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    private static func isUsernameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "_")
    }
}
